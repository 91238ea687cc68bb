/**
 * Dev mode's debounce: a build writes several files in a row (dist/tools.json, then
 * dist/adapter.iife.js), so each watched thing (a plugin folder, config.json) acts once its files
 * have been quiet for `delayMs`. One key never runs twice at once: a change while it runs runs it
 * once more afterwards. `pending()` counts keys waiting or running.
 */

export interface Debouncer<K> {
  /** Notes a change of `key`; it runs `delayMs` after its last change. */
  trigger(key: K): void;
  /** Whether `key` waits or runs. */
  has(key: K): boolean;
  /** The keys that wait or run, `filter` chooses which count. */
  pending(filter?: (key: K) => boolean): number;
  /** Resolves once nothing waits or runs (tests). */
  idle(): Promise<void>;
  /** Cancels every waiting run; running ones finish. */
  close(): void;
}

export function createDebouncer<K>(
  delayMs: number,
  run: (key: K) => Promise<void>,
): Debouncer<K> {
  const timers = new Map<K, ReturnType<typeof setTimeout>>();
  const running = new Map<K, Promise<void>>();
  const again = new Set<K>();
  let closed = false;

  function fire(key: K) {
    timers.delete(key);
    if (running.has(key)) {
      again.add(key);
      return;
    }
    const done = run(key).catch(() => {}).finally(() => {
      running.delete(key);
      if (again.delete(key) && !closed) fire(key);
    });
    running.set(key, done);
  }

  return {
    trigger(key) {
      if (closed) return;
      clearTimeout(timers.get(key));
      timers.set(key, setTimeout(() => fire(key), delayMs));
    },
    has: (key) => timers.has(key) || running.has(key) || again.has(key),
    pending(filter = () => true) {
      const keys = new Set([...timers.keys(), ...running.keys(), ...again]);
      return [...keys].filter(filter).length;
    },
    async idle() {
      while (timers.size > 0 || running.size > 0) {
        await Promise.all([...running.values(), new Promise((r) => setTimeout(r, 5))]);
      }
    },
    close() {
      closed = true;
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
      again.clear();
    },
  };
}
