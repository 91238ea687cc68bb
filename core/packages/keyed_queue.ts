/**
 * Serializes tasks by key: a task starts when every earlier task with the same key has settled;
 * tasks with different keys run side by side. A failed task does not block the next one.
 */
export interface KeyedQueue {
  run<T>(key: string, task: () => Promise<T>): Promise<T>;
  /** Keys with a task running or waiting (for tests). */
  busyKeys(): string[];
}

export function createKeyedQueue(): KeyedQueue {
  const tails = new Map<string, Promise<unknown>>();
  return {
    run<T>(key: string, task: () => Promise<T>): Promise<T> {
      const previous = tails.get(key) ?? Promise.resolve();
      const result = previous.then(task, task);
      const tail = result.catch(() => {});
      tails.set(key, tail);
      tail.then(() => {
        if (tails.get(key) === tail) tails.delete(key);
      });
      return result;
    },
    busyKeys: () => [...tails.keys()],
  };
}
