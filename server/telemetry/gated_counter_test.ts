import { assertEquals } from "../../tests/helpers/assert.ts";
import { createGatedCounter } from "./gated_counter.ts";

function rig(initially: boolean, everyMs = 1_000) {
  let on = initially;
  let looks = 0;
  let now = 0;
  const counter = createGatedCounter(() => (looks++, on), () => now, everyMs);
  return {
    counter,
    set: (value: boolean) => (on = value),
    advance: (ms: number) => (now += ms),
    looks: () => looks,
  };
}

const ok = { plugin: "x", success: true };

Deno.test("calls while on are kept; the call path looks at most once a second", () => {
  const r = rig(true);
  for (let i = 0; i < 100; i++) r.counter.record(ok);
  assertEquals(r.looks(), 1, "one look at creation, none per call");
  r.advance(1_000);
  r.counter.record(ok);
  assertEquals(r.looks(), 2);
  assertEquals(r.counter.take()?.success, 101);
  assertEquals(r.counter.take(), undefined);
  r.counter.close();
});

Deno.test("calls in the second after a disable are dropped, even if it is enabled again", () => {
  const r = rig(true);
  r.counter.record(ok); // looked at creation: on
  r.set(false); // hub telemetry disable
  r.counter.record(ok);
  r.counter.record(ok); // within the second: not looked at, but waiting apart
  r.advance(1_000);
  r.counter.record(ok); // looks: off, drops what waited, does not count this one
  r.set(true);
  r.advance(1_000);
  r.counter.record(ok); // looks: on again, counts this one
  assertEquals(r.counter.take()?.success, 1);
  r.counter.close();
});

Deno.test("off from the start: nothing is counted; take looks again", () => {
  const r = rig(false);
  r.counter.record(ok);
  r.set(true);
  r.counter.record(ok); // still within the second of an off look
  assertEquals(r.counter.take(), undefined);
  assertEquals(r.looks(), 2);
  r.counter.close();
});

Deno.test("a timer looks a second after calls were left waiting; a later disable keeps them", async () => {
  let on = true;
  const counter = createGatedCounter(() => on, Date.now, 20);
  counter.record(ok);
  await new Promise((r) => setTimeout(r, 60)); // the timer looked: on, so the call is kept
  on = false;
  assertEquals(counter.take()?.success, 1);
  counter.record(ok);
  assertEquals(counter.take(), undefined, "off: not counted");
  counter.close();
  on = true;
  counter.record(ok);
  assertEquals(counter.take(), undefined, "closed: not counted");
});
