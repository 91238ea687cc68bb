/**
 * Work queued per key (a tab, most often): the work of one key runs one piece after another, in
 * the order it was queued; the work of different keys runs side by side. A failed piece fails
 * only its own caller; the next piece runs anyway.
 */

export interface KeyedQueue<K> {
  /** Runs `work` after everything queued for `key` before it; resolves as `work` does. */
  run<T>(key: K, work: () => T | Promise<T>): Promise<T>;
  /** Forgets `key`'s queue: work queued from now on does not wait for what was queued before. */
  forget(key: K): void;
}

export function createKeyedQueue<K>(): KeyedQueue<K> {
  /** Per key, the end of its queue (never rejects). */
  const ends = new Map<K, Promise<unknown>>();
  return {
    run(key, work) {
      const before = ends.get(key) ?? Promise.resolve();
      const run = before.then(work);
      const end = run.catch(() => {});
      ends.set(key, end);
      void end.then(() => ends.get(key) === end && ends.delete(key));
      return run;
    },
    forget(key) {
      ends.delete(key);
    },
  };
}
