/// <reference lib="deno.ns" />
import { assert, assertEquals } from "../../../tests/helpers/assert.ts";
import { createConfirmationQueue } from "./confirmation_queue.ts";

function setup(now = 1_000) {
  const shown: string[] = [];
  const hidden: string[] = [];
  let changes = 0;
  const queue = createConfirmationQueue({
    onChange: () => changes++,
    alerts: { show: (c) => shown.push(c.id), hide: (id) => hidden.push(id) },
    names: (tool) => tool === "test-app__echo" ? { toolDisplayName: "Echo" } : {},
    clock: () => now,
  });
  return { queue, shown, hidden, changes: () => changes };
}

const request = (id: string, expiresAt = 60_000) => ({
  id,
  tool: "test-app__echo",
  plugin: "test-app",
  parameters: { text: "hi" },
  expiresAt,
});

Deno.test("requests queue in arrival order, with display names, and alert once each", () => {
  const { queue, shown } = setup();
  queue.add(request("a"));
  queue.add(request("b"));
  queue.add(request("a")); // a repeat is ignored
  assertEquals(queue.list().map((c) => c.id), ["a", "b"]);
  assertEquals(queue.list()[0].toolDisplayName, "Echo");
  assertEquals(queue.list()[0].receivedAt, 1_000);
  assertEquals(shown, ["a", "b"]);
  queue.clear();
});

Deno.test("settling removes one, hides its alert, and ignores unknown ids", () => {
  const { queue, hidden, changes } = setup();
  queue.add(request("a"));
  queue.add(request("b"));
  const before = changes();
  queue.settle("a");
  queue.settle("nope");
  assertEquals(queue.list().map((c) => c.id), ["b"]);
  assertEquals(hidden, ["a"]);
  assertEquals(changes(), before + 1);
  assertEquals(queue.has("b"), true);
  queue.clear();
  assertEquals(queue.list(), []);
});

Deno.test("a request disappears when it expires", async () => {
  const { queue } = setup(Date.now());
  queue.add(request("soon", Date.now() + 20));
  assertEquals(queue.has("soon"), true);
  await new Promise((r) => setTimeout(r, 60));
  assertEquals(queue.has("soon"), false);
});

Deno.test("a site question keeps its site; a tool question has none", () => {
  const { queue } = setup();
  queue.add({ ...request("s"), tool: "browser_click", plugin: "browser", site: "app.example.com" });
  queue.add(request("t"));
  assertEquals(queue.list().map((c) => c.site), ["app.example.com", undefined]);
  assert(!("site" in queue.list()[1]));
  queue.clear();
});

Deno.test("a call asked about its tool, then about its site, queues again under the same id", () => {
  const { queue, shown } = setup();
  queue.add(request("c"));
  queue.settle("c"); // the person allowed the tool
  queue.add({ ...request("c"), site: "app.example.com" });
  assertEquals(queue.list().map((c) => [c.id, c.site]), [["c", "app.example.com"]]);
  assertEquals(shown, ["c", "c"]);
  queue.clear();
});
