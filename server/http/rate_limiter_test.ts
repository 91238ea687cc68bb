import { assertEquals } from "../../tests/helpers/assert.ts";
import { RATE_LIMITS, RateLimiter } from "./rate_limiter.ts";

Deno.test("allows `limit` events per window per key, then refuses until the window slides", () => {
  let now = 0;
  const limiter = new RateLimiter({ limit: 3, windowMs: 60_000 }, () => now);
  assertEquals([1, 2, 3, 4].map(() => limiter.take("a")), [true, true, true, false]);
  assertEquals(limiter.take("b"), true, "keys are independent");
  now = 59_999;
  assertEquals(limiter.take("a"), false);
  now = 60_000;
  assertEquals(limiter.take("a"), true, "the oldest event left the window");
  assertEquals(limiter.take("a"), true);
  assertEquals(limiter.take("a"), true);
  assertEquals(limiter.take("a"), false);
});

Deno.test("refused events do not extend the wait", () => {
  let now = 0;
  const limiter = new RateLimiter({ limit: 1, windowMs: 1000 }, () => now);
  limiter.take("k");
  for (now = 1; now < 1000; now += 100) assertEquals(limiter.take("k"), false);
  now = 1000;
  assertEquals(limiter.take("k"), true);
});

Deno.test("the documented limits: 10/min admin, 5/min MCP sessions", () => {
  assertEquals(RATE_LIMITS.admin, { limit: 10, windowMs: 60_000 });
  assertEquals(RATE_LIMITS.mcpSession, { limit: 5, windowMs: 60_000 });
});
