/// <reference lib="deno.ns" />
import { assertEquals } from "../../../tests/helpers/assert.ts";
import { createActivityLog } from "./activity_log.ts";

const start = (id: string, tool = "test-app__echo") => ({
  invocationId: id,
  tool,
  plugin: "test-app",
  startedAt: 1000,
});

Deno.test("a call runs, then succeeds with its duration; changes are announced", () => {
  let changes = 0;
  const log = createActivityLog(() => changes++);
  log.started(start("a"));
  assertEquals(log.list()[0].state, "running");
  log.ended({ ...start("a"), success: true, durationMs: 12 });
  assertEquals(log.list(), [{
    id: "a",
    tool: "test-app__echo",
    plugin: "test-app",
    startedAt: 1000,
    state: "succeeded",
    durationMs: 12,
  }]);
  assertEquals(changes, 2);
});

Deno.test("an ask call waits, runs once answered, and a failure keeps its code and message", () => {
  const log = createActivityLog(() => {});
  log.started(start("b"));
  log.waiting({
    id: "b",
    tool: "test-app__echo",
    plugin: "test-app",
    parameters: {},
    expiresAt: 0,
  });
  assertEquals(log.list()[0].state, "waiting");
  log.answered("b");
  assertEquals(log.list()[0].state, "running");
  log.ended({
    ...start("b"),
    success: false,
    durationMs: 5,
    error: {
      code: "PERMISSION_DENIED",
      message: "denied",
      category: "permission",
      retryable: false,
    },
  });
  assertEquals(log.list()[0].error, { code: "PERMISSION_DENIED", message: "denied" });
});

Deno.test("newest first, at most the limit", () => {
  const log = createActivityLog(() => {}, 3);
  for (const id of ["1", "2", "3", "4"]) log.started(start(id));
  assertEquals(log.list().map((e) => e.id), ["4", "3", "2"]);
});

Deno.test("an end without a start (the panel opened late) still shows the call", () => {
  const log = createActivityLog(() => {});
  log.ended({ ...start("z"), success: true, durationMs: 3 });
  assertEquals(log.list()[0].state, "succeeded");
});

Deno.test("a closed link fails the calls still open", () => {
  const log = createActivityLog(() => {});
  log.started(start("r"));
  log.started(start("s"));
  log.ended({ ...start("s"), success: true, durationMs: 1 });
  log.interrupted();
  assertEquals(log.list().map((e) => e.state), ["succeeded", "failed"]);
  assertEquals(log.list()[1].error?.code, "EXTENSION_DISCONNECTED");
});
