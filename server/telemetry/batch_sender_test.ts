import { assertEquals } from "../../tests/helpers/assert.ts";
import { createBatchSender } from "./batch_sender.ts";
import type { TelemetryEvent } from "./events.ts";

const event = (n: number) => ({ event: "usage", periodMinutes: n }) as unknown as TelemetryEvent;

function recorder(answer: () => Promise<Response>) {
  const bodies: { events: { periodMinutes: number }[] }[] = [];
  const fetch = ((_url: string, init: RequestInit) => {
    bodies.push(JSON.parse(init.body as string));
    return answer();
  }) as typeof globalThis.fetch;
  return { bodies, fetch };
}

Deno.test("events pushed together go out as one batch after the delay", async () => {
  const r = recorder(() => Promise.resolve(new Response(null, { status: 204 })));
  const sender = createBatchSender({
    endpoint: "http://127.0.0.1:9/",
    active: () => true,
    batchDelayMs: 20,
    maxQueued: 10,
    fetch: r.fetch,
    onProblem: () => {},
  });
  for (let i = 0; i < 3; i++) sender.push(event(i));
  assertEquals(r.bodies.length, 0, "nothing is sent at push time");
  await new Promise((resolve) => setTimeout(resolve, 60));
  assertEquals(r.bodies.map((b) => b.events.map((e) => e.periodMinutes)), [[0, 1, 2]]);
  sender.stop();
});

Deno.test("while the endpoint is down the queue keeps only the newest events", async () => {
  const problems: string[] = [];
  let down = true;
  const r = recorder(() =>
    down ? Promise.reject(new TypeError("refused")) : Promise.resolve(new Response(null))
  );
  const sender = createBatchSender({
    endpoint: "http://127.0.0.1:9/",
    active: () => true,
    batchDelayMs: 60_000,
    maxQueued: 5,
    fetch: r.fetch,
    send: { backoffMs: [] },
    onProblem: (m) => problems.push(m),
  });
  for (let i = 0; i < 50; i++) sender.push(event(i));
  await sender.flush();
  assertEquals(r.bodies.map((b) => b.events.map((e) => e.periodMinutes)), [[45, 46, 47, 48, 49]]);
  assertEquals(problems, ["send failed: refused", "dropped 5 event(s) after retries"]);
  down = false;
  sender.push(event(99));
  await sender.flush();
  assertEquals(r.bodies.at(-1)!.events.map((e) => e.periodMinutes), [99]);
  sender.stop();
});

Deno.test("turned off before the send: what waited is dropped unsent", async () => {
  const r = recorder(() => Promise.resolve(new Response(null)));
  let on = true;
  const sender = createBatchSender({
    endpoint: "http://127.0.0.1:9/",
    active: () => on,
    batchDelayMs: 60_000,
    maxQueued: 5,
    fetch: r.fetch,
    onProblem: () => {},
  });
  sender.push(event(1));
  on = false;
  await sender.flush();
  on = true;
  await sender.flush();
  assertEquals(r.bodies, []);
  sender.stop();
});
