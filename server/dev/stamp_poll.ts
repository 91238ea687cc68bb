/**
 * Dev mode's safety net: a poll that compares each watched thing's cheap stamp (build_stamp.ts)
 * with the last one known and reports the ones that changed without a native event. A key that
 * waits or runs is skipped (it takes its stamp when it acts). One poll runs at a time; the
 * interval can change (short while native watching fails).
 */

export interface StampPollDeps {
  /** The keys to look at now. */
  keys(): string[];
  stampOf(key: string): Promise<string>;
  /** Last known stamps, shared with whoever acts on a change. */
  stamps: Map<string, string>;
  /** Whether `key` is already being handled. */
  busy(key: string): boolean;
  /** A change native watching missed. */
  onDetect(key: string): void;
  clock: () => number;
}

export interface StampPoll {
  /** (Re)starts polling every `ms`. */
  start(ms: number): void;
  lastPollAt(): number | null;
  detections(): number;
  close(): void;
}

export function createStampPoll(deps: StampPollDeps): StampPoll {
  let timer: ReturnType<typeof setInterval> | undefined;
  let lastPollAt: number | null = null;
  let detections = 0;
  let polling = false;
  let closed = false;

  async function pollOnce() {
    if (polling) return; // a slow disk: the next tick comes after this one
    polling = true;
    lastPollAt = deps.clock();
    try {
      for (const key of deps.keys()) {
        if (closed || deps.busy(key)) continue;
        const stamp = await deps.stampOf(key);
        const known = deps.stamps.get(key);
        if (known === undefined || known === stamp) {
          deps.stamps.set(key, stamp);
          continue;
        }
        detections++;
        deps.onDetect(key);
      }
    } finally {
      polling = false;
    }
  }

  return {
    start(ms) {
      if (closed) return;
      if (timer !== undefined) clearInterval(timer);
      timer = setInterval(() => void pollOnce(), ms);
    },
    lastPollAt: () => lastPollAt,
    detections: () => detections,
    close() {
      closed = true;
      clearInterval(timer);
    },
  };
}
