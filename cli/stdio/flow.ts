/**
 * How many messages the stdio bridge has on their way to the hub at once. A client may write
 * thousands of requests in one burst; each one sent costs an HTTP request and memory until its
 * answer is out. So at most `maxInFlight` are sent at a time, up to `maxQueued` more wait in order,
 * and the held messages (sent or waiting) stay under `maxHeldBytes`; beyond that, `offer` says no
 * and the bridge answers the request with an error at once.
 */

export interface FlowLimits {
  maxInFlight: number;
  maxQueued: number;
  maxHeldBytes: number;
}

/** Bounds for the bridge: a few dozen requests at once is more than any agent needs. */
export const BRIDGE_FLOW_LIMITS: FlowLimits = {
  maxInFlight: 64,
  maxQueued: 1_000,
  maxHeldBytes: 64 * 1024 * 1024,
};

/** Starts a message; `release` (once is enough) frees its place when it is done. */
export type Start = (release: () => void) => void;

export interface Flow {
  /** Starts or queues a message of `bytes`; false when the bridge holds too much already. */
  offer(bytes: number, start: Start): boolean;
  readonly inFlight: number;
  readonly queued: number;
}

export function createFlow(limits: FlowLimits): Flow {
  const waiting: { bytes: number; start: Start }[] = [];
  let inFlight = 0;
  let held = 0;

  const run = (bytes: number, start: Start) => {
    inFlight++;
    let released = false;
    start(() => {
      if (released) return;
      released = true;
      inFlight--;
      held -= bytes;
      const next = waiting.shift();
      if (next) run(next.bytes, next.start);
    });
  };

  return {
    offer(bytes, start) {
      // A single message over the byte bound still goes when the bridge holds nothing else.
      if (held > 0 && held + bytes > limits.maxHeldBytes) return false;
      if (inFlight < limits.maxInFlight) {
        held += bytes;
        run(bytes, start);
        return true;
      }
      if (waiting.length >= limits.maxQueued) return false;
      held += bytes;
      waiting.push({ bytes, start });
      return true;
    },
    get inFlight() {
      return inFlight;
    },
    get queued() {
      return waiting.length;
    },
  };
}
