/** A sliding-window rate limiter: at most `limit` events per key within `windowMs`. */
export interface RateLimit {
  limit: number;
  windowMs: number;
}

/** The request limits (docs/http.md, "Rate limits"). */
export const RATE_LIMITS = {
  /** `/reload`, `/extension/reload`, `/plugin-settings`: each endpoint counted on its own. */
  admin: { limit: 10, windowMs: 60_000 },
  /** MCP session creation (`initialize` on `/mcp`). */
  mcpSession: { limit: 5, windowMs: 60_000 },
} as const satisfies Record<string, RateLimit>;

/** Seconds a client is told to wait (`Retry-After`) once it is over a limit. */
export const RETRY_AFTER_SECONDS = 60;

export class RateLimiter {
  readonly #events = new Map<string, number[]>();

  constructor(readonly rule: RateLimit, readonly clock: () => number = Date.now) {}

  /** Records an event for `key` and returns true, or returns false when the key is over its limit. */
  take(key: string): boolean {
    const now = this.clock();
    const recent = (this.#events.get(key) ?? []).filter((t) => now - t < this.rule.windowMs);
    if (recent.length >= this.rule.limit) {
      this.#events.set(key, recent);
      return false;
    }
    recent.push(now);
    this.#events.set(key, recent);
    return true;
  }
}
