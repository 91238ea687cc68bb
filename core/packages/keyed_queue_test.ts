import { assertEquals, assertRejects } from "../../tests/helpers/assert.ts";
import { createKeyedQueue } from "./keyed_queue.ts";

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

Deno.test("keyed queue: one task per key at a time, in order; a failure does not block", async () => {
  const queue = createKeyedQueue();
  const log: string[] = [];
  const task = (name: string, ms: number, fail = false) => async () => {
    log.push(`start ${name}`);
    await tick(ms);
    log.push(`end ${name}`);
    if (fail) throw new Error(name);
    return name;
  };
  const a1 = queue.run("a", task("a1", 20, true));
  const a2 = queue.run("a", task("a2", 5));
  const b1 = queue.run("b", task("b1", 5));
  await assertRejects(a1, /a1/);
  assertEquals(await a2, "a2");
  assertEquals(await b1, "b1");
  assertEquals(log, ["start a1", "start b1", "end b1", "end a1", "start a2", "end a2"]);
  await tick(0);
  assertEquals(queue.busyKeys(), []);
});
