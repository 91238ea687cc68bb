import { assertEquals, assertThrows } from "../../tests/helpers/assert.ts";
import { createEventQueue } from "./event_queue.ts";

Deno.test("the queue keeps the newest events up to its capacity and counts the dropped", () => {
  const queue = createEventQueue<number>(3);
  for (let i = 1; i <= 5; i++) queue.push(i);
  assertEquals([queue.size, queue.dropped], [3, 2]);
  assertEquals(queue.take(2), [3, 4]);
  assertEquals(queue.take(10), [5]);
  assertEquals(queue.take(10), []);
  queue.push(6);
  queue.clear();
  assertEquals(queue.size, 0);
});

Deno.test("a hundred thousand pushes into a full queue keep its size fixed", () => {
  const queue = createEventQueue<{ n: number }>(100);
  for (let i = 0; i < 100_000; i++) queue.push({ n: i });
  assertEquals([queue.size, queue.dropped, queue.take(1)[0].n], [100, 99_900, 99_900]);
});

Deno.test("a queue needs a capacity of at least one", () => {
  assertThrows(() => createEventQueue(0), /at least 1/);
});
