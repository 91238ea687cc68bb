/**
 * Token buckets per key, with a bounded number of keys: each key may pass `burst` events at once
 * after a quiet spell and `perSecond` on average. A key not used for a while is the first to give
 * way when a new one arrives at `maxKeys` (it comes back full), so any number of keys costs a fixed
 * amount of memory. (`RateLimiter` in rate_limiter.ts is the other kind: a sliding window over a
 * few fixed keys, for "at most N a minute".)
 */
import { touch } from "../../core/cache/lru.ts";

export interface Rate {
  /** Events a second, on average. */
  perSecond: number;
  /** Events that may pass at once after a quiet spell. */
  burst: number;
}

export interface TokenBucket {
  tokens: number;
  /** When `tokens` was last topped up (ms). */
  at: number;
}

export class TokenBuckets {
  readonly #buckets = new Map<string, TokenBucket>();

  constructor(readonly rate: Rate, readonly maxKeys: number) {}

  /**
   * The bucket of `key`, the most recently used now, topped up for the time since it was last
   * used. `hasToken` says whether an event may pass; the caller takes the token (`tokens--`), so
   * a refusal by one of several buckets takes nothing from the others.
   */
  bucket(key: string, now: number): TokenBucket {
    const bucket = touch(
      this.#buckets,
      key,
      () => ({ tokens: this.rate.burst, at: now }),
      this.maxKeys,
    );
    bucket.tokens = Math.min(
      this.rate.burst,
      bucket.tokens + ((now - bucket.at) / 1000) * this.rate.perSecond,
    );
    bucket.at = now;
    return bucket;
  }
}

export const hasToken = (bucket: TokenBucket): boolean => bucket.tokens >= 1;
