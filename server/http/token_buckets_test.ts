import { assertEquals } from "../../tests/helpers/assert.ts";
import { hasToken, TokenBuckets } from "./token_buckets.ts";

/** Takes one token from `key` when there is one; whether it did. */
function take(buckets: TokenBuckets, key: string, now: number): boolean {
  const bucket = buckets.bucket(key, now);
  if (!hasToken(bucket)) return false;
  bucket.tokens--;
  return true;
}

Deno.test("a bucket passes its burst, then refills at its rate up to the burst", () => {
  const buckets = new TokenBuckets({ perSecond: 2, burst: 3 }, 10);
  assertEquals([0, 0, 0, 0].map(() => take(buckets, "a", 0)), [true, true, true, false]);
  assertEquals(take(buckets, "b", 0), true, "keys are independent");
  assertEquals(take(buckets, "a", 499), false);
  assertEquals(take(buckets, "a", 500), true, "one token after half a second");
  assertEquals(buckets.bucket("a", 60_000).tokens, 3, "never more than the burst");
});

Deno.test("looking at a bucket takes nothing; the least recently used key gives way", () => {
  const buckets = new TokenBuckets({ perSecond: 1, burst: 1 }, 2);
  assertEquals(take(buckets, "a", 0), true);
  assertEquals(hasToken(buckets.bucket("a", 0)), false);
  assertEquals(take(buckets, "b", 0), true);
  buckets.bucket("c", 0); // a was used least recently: it gives way and comes back full
  assertEquals(take(buckets, "a", 0), true);
  assertEquals(take(buckets, "c", 0), true);
});
