import { assertEquals } from "../../tests/helpers/assert.ts";
import { createFlow } from "./flow.ts";

Deno.test("at most maxInFlight run, maxQueued wait in order, then offers are refused", () => {
  const flow = createFlow({ maxInFlight: 2, maxQueued: 1, maxHeldBytes: 1_000 });
  const started: string[] = [];
  const releases: (() => void)[] = [];
  const offer = (name: string) =>
    flow.offer(10, (release) => {
      started.push(name);
      releases.push(release);
    });
  assertEquals([offer("a"), offer("b"), offer("c"), offer("d")], [true, true, true, false]);
  assertEquals(started, ["a", "b"]);
  assertEquals([flow.inFlight, flow.queued], [2, 1]);
  releases[0]();
  releases[0](); // twice is once
  assertEquals(started, ["a", "b", "c"]);
  assertEquals([flow.inFlight, flow.queued], [2, 0]);
  assertEquals(offer("e"), true, "room in the queue again");
});

Deno.test("held bytes are bounded, but one message alone may exceed the bound", () => {
  const flow = createFlow({ maxInFlight: 10, maxQueued: 10, maxHeldBytes: 100 });
  const releases: (() => void)[] = [];
  const offer = (bytes: number) => flow.offer(bytes, (release) => void releases.push(release));
  assertEquals(offer(500), true, "alone");
  assertEquals(offer(1), false, "over the bound while the big one is held");
  releases[0]();
  assertEquals([offer(60), offer(40), offer(1)], [true, true, false]);
});
