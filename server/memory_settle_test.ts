import { assert, assertEquals } from "../tests/helpers/assert.ts";
import { SETTLE_GROWTH_BYTES, startMemorySettle } from "./memory_settle.ts";
import { silentLogger } from "./log/logger.ts";

Deno.test("collects once the used heap has grown past the threshold, then follows the new level", () => {
  let used = 50e6;
  let collections = 0;
  const settle = startMemorySettle({
    logger: silentLogger,
    heapUsed: () => used,
    collect: () => {
      collections++;
      used = 60e6; // what survived
    },
    intervalMs: 60_000,
  });
  try {
    used += SETTLE_GROWTH_BYTES - 1;
    assertEquals(settle.check(), false);
    used = 50e6 + SETTLE_GROWTH_BYTES;
    assertEquals(settle.check(), true);
    assertEquals(collections, 1);
    used = 60e6 + SETTLE_GROWTH_BYTES / 2;
    assertEquals(settle.check(), false, "measured from what the last collection left");
  } finally {
    settle.stop();
  }
});

Deno.test("the real collector frees garbage: the used heap drops after a check", () => {
  const settle = startMemorySettle({ logger: silentLogger, intervalMs: 60_000 });
  try {
    let junk: string[] = [];
    for (let i = 0; i < 400_000; i++) junk.push(`${i}`.repeat(20));
    const before = Deno.memoryUsage().heapUsed;
    junk = [];
    assert(junk.length === 0);
    assert(settle.check(), "the heap grew by more than the threshold");
    assert(Deno.memoryUsage().heapUsed < before, "garbage was collected");
  } finally {
    settle.stop();
  }
});

Deno.test("without a collector it never collects", () => {
  const settle = startMemorySettle({
    logger: silentLogger,
    collect: undefined,
    heapUsed: () => 1e12,
  });
  assertEquals(settle.check(), false);
  settle.stop();
});
