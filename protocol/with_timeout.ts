/**
 * Waits for `promise` at most `ms` milliseconds: its value, or `fallback` when time runs out first.
 * The timer is cleared either way, so a settled wait holds no timer open. The promise is not
 * cancelled; it may still settle later, unobserved.
 */
export function withTimeout<T>(promise: Promise<T>, ms: number, fallback: T): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<T>((resolve) => (timer = setTimeout(() => resolve(fallback), ms)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
