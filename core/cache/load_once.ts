/**
 * Work done on first use, such as importing code: the first call runs `load`, later calls get the
 * same promise, and a failed load is forgotten so that the next call tries again (an import can
 * fail while an update replaces files, and must not stay failed).
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () =>
    pending ??= load().catch((error) => {
      pending = undefined;
      throw error;
    });
}
