import { assert, assertEquals } from "../tests/helpers/assert.ts";
import { QUIET_GROWTH_BYTES, SETTLE_GROWTH_BYTES, startMemorySettle } from "./memory_settle.ts";
import { silentLogger } from "./log/logger.ts";

/** A settle over a fake heap whose collections leave `survives` bytes used. */
function fakeHeap(start: number, survives: number) {
  const heap = { used: start, total: start, collections: 0 };
  const settle = startMemorySettle({
    logger: silentLogger,
    heap: () => ({ used: heap.used, total: Math.max(heap.total, heap.used) }),
    collect: () => {
      heap.collections++;
      heap.used = heap.total = survives;
    },
    intervalMs: 60_000,
  });
  return { heap, settle };
}

Deno.test("the first check collects what start-up left behind", () => {
  const { heap, settle } = fakeHeap(31e6, 21e6); // module evaluation, config and plugin loading
  try {
    assertEquals(settle.check(), true);
    assertEquals(heap.collections, 1);
    assertEquals(settle.check(), false, "nothing new since");
  } finally {
    settle.stop();
  }
});

Deno.test("collects once the used heap has grown past the threshold, then follows the new level", () => {
  const { heap, settle } = fakeHeap(50e6, 50e6);
  try {
    assertEquals(settle.check(), true, "the first check collects what start-up left");
    assertEquals(settle.check(), false, "nothing grew");
    heap.used += SETTLE_GROWTH_BYTES - 1;
    assertEquals(settle.check(), false, "grew, but still moving: left to V8");
    heap.used = 50e6 + SETTLE_GROWTH_BYTES;
    assertEquals(settle.check(), true);
    assertEquals(heap.collections, 2);
    heap.used = 50e6 + SETTLE_GROWTH_BYTES / 2;
    assertEquals(settle.check(), false, "measured from what the last collection left");
  } finally {
    settle.stop();
  }
});

Deno.test("a small growth is collected once the heap goes quiet, not while it moves", () => {
  const { heap, settle } = fakeHeap(30e6, 21e6);
  try {
    assertEquals(settle.check(), true, "start-up");
    heap.used += QUIET_GROWTH_BYTES + 2e6;
    assertEquals(settle.check(), false, "a burst is running: V8 collects on its own");
    heap.used += 0.5e6;
    assertEquals(settle.check(), true, "the burst ended: one full collection");
    assertEquals(heap.collections, 2);
    heap.used += 0.5e6;
    assertEquals(settle.check(), false, "quiet, but too little to be worth a collection");
    assertEquals(heap.collections, 2);
  } finally {
    settle.stop();
  }
});

Deno.test("space V8 reserved in a burst and kept after freeing its garbage is given back", () => {
  const { heap, settle } = fakeHeap(30e6, 21e6);
  try {
    assertEquals(settle.check(), true, "start-up");
    heap.total = 60e6; // the burst grew the heap; V8 collected its garbage but kept the space
    heap.used = 22e6;
    assertEquals(settle.check(), true, "quiet: one full collection gives the space back");
    assertEquals(heap.collections, 2);
    assertEquals(settle.check(), false, "nothing reserved since");
  } finally {
    settle.stop();
  }
});

Deno.test("the real collector frees garbage: the used heap drops after a check", async () => {
  const settle = startMemorySettle({ logger: silentLogger, intervalMs: 60_000 });
  try {
    assertEquals(settle.check(), false, "not loaded before the first tick or ready()");
    await settle.ready();
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
    heap: () => ({ used: 1e12, total: 1e12 }),
  });
  assertEquals(settle.check(), false);
  settle.stop();
});
