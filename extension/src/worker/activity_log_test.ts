/// <reference lib="deno.ns" />
import { assertEquals } from "../../../tests/helpers/assert.ts";
import { createActivityLog, MAX_ACTIVITY_ERROR_CHARS } from "./activity_log.ts";

const start = (id: string, tool = "test-app__echo") => ({
  id,
  tool,
  plugin: "test-app",
  startedAt: 1000,
});
const end = (id: string, success: boolean, durationMs: number) => ({
  invocationId: id,
  tool: "test-app__echo",
  plugin: "test-app",
  success,
  durationMs,
});
const failure = (code: string, message: string) => ({
  ok: false as const,
  error: { code, message, category: "internal" as const, retryable: false },
});

Deno.test("a dispatched call runs, then ends with the extension's reply; changes are announced", () => {
  let changes = 0;
  const log = createActivityLog(() => changes++);
  log.started(start("a"));
  assertEquals(log.list()[0].state, "running");
  log.replied("a", { ok: true, value: 1 }, { now: 1012 });
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

Deno.test("a failed reply keeps its code and message, cut to a bounded length", () => {
  const log = createActivityLog(() => {});
  log.started(start("f"));
  log.replied("f", failure("TAB_CLOSED", "x".repeat(MAX_ACTIVITY_ERROR_CHARS + 10)));
  const [entry] = log.list();
  assertEquals([entry.state, entry.error?.code], ["failed", "TAB_CLOSED"]);
  assertEquals(entry.error?.message.length, MAX_ACTIVITY_ERROR_CHARS + 1);
});

Deno.test("the hub's end wins: a late reply does not change a call the hub ended", () => {
  const log = createActivityLog(() => {});
  log.started(start("t"));
  log.ended({
    ...end("t", false, 30_000),
    error: { code: "TIMEOUT", message: "late", category: "timeout", retryable: true },
  });
  log.replied("t", { ok: true, value: 1 });
  assertEquals([log.list()[0].state, log.list()[0].error?.code], ["failed", "TIMEOUT"]);
  // An end after the reply (the hub failed while shaping the result) replaces it.
  log.started(start("u"));
  log.replied("u", { ok: true, value: 1 });
  log.ended({
    ...end("u", false, 4),
    error: { code: "INTERNAL", message: "x", category: "internal", retryable: false },
  });
  assertEquals(log.list()[0].state, "failed");
});

Deno.test("a reply replaced before it went out (too large) replaces the recorded one", () => {
  const log = createActivityLog(() => {});
  log.started(start("big"));
  log.replied("big", { ok: true, value: "…" }, { now: 1005 });
  log.replied("big", failure("RESULT_TOO_LARGE", "too big"), { replace: true });
  assertEquals(log.list()[0], {
    ...start("big"),
    state: "failed",
    durationMs: 5,
    error: { code: "RESULT_TOO_LARGE", message: "too big" },
  });
});

Deno.test("an ask call waits, runs once answered, and its dispatch continues the same entry", () => {
  const log = createActivityLog(() => {});
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
  log.started(start("b"));
  log.replied("b", { ok: true, value: null });
  assertEquals(log.list().map((e) => [e.id, e.state]), [["b", "succeeded"]]);
});

Deno.test("a denied call ends with the hub's end", () => {
  const log = createActivityLog(() => {});
  log.waiting({ id: "d", tool: "t", plugin: "p", parameters: {}, expiresAt: 0 });
  log.ended({
    ...end("d", false, 5),
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

Deno.test("an end without a start (a refusal before dispatch) still shows the call", () => {
  const log = createActivityLog(() => {});
  log.ended(end("z", true, 3));
  assertEquals(log.list()[0].state, "succeeded");
});

Deno.test("a closed link fails the calls still open", () => {
  const log = createActivityLog(() => {});
  log.started(start("r"));
  log.started(start("s"));
  log.replied("s", { ok: true, value: 1 });
  log.interrupted();
  assertEquals(log.list().map((e) => e.state), ["succeeded", "failed"]);
  assertEquals(log.list()[1].error?.code, "EXTENSION_DISCONNECTED");
});

const siteAsk = (site: unknown) => ({
  ok: false as const,
  error: {
    code: "SITE_ASK",
    message: "ask",
    category: "permission" as const,
    retryable: false,
    details: { site, url: "https://app.example.com/" },
  },
});

Deno.test("a SITE_ASK reply is no failure: the call waits for the site, then runs again", () => {
  const log = createActivityLog(() => {});
  log.started(start("s", "browser_click"));
  log.replied("s", siteAsk("app.example.com"));
  assertEquals([log.list()[0].state, log.list()[0].site], ["waiting", "app.example.com"]);
  assertEquals(log.list()[0].error, undefined);
  log.waiting({
    id: "s",
    tool: "browser_click",
    plugin: "browser",
    parameters: {},
    expiresAt: 1,
    site: "app.example.com",
  });
  log.answered("s");
  assertEquals([log.list()[0].state, log.list()[0].site], ["running", undefined]);
  log.replied("s", siteAsk("cdn.example.com")); // a frame on another site asks next
  log.started(start("s", "browser_click")); // the hub dispatched again with the grant
  log.replied("s", { ok: true, value: 1 }, { now: 1500 });
  assertEquals([log.list()[0].state, log.list()[0].site], ["succeeded", undefined]);
});

Deno.test("a SITE_ASK the person denies ends with the hub's end; an odd site is not trusted", () => {
  const log = createActivityLog(() => {});
  log.started(start("d", "browser_click"));
  log.replied("d", siteAsk({ not: "text" }));
  assertEquals([log.list()[0].state, log.list()[0].site], ["waiting", undefined]);
  log.ended({
    ...end("d", false, 900),
    error: { code: "PERMISSION_DENIED", message: "no", category: "permission", retryable: false },
  });
  const [entry] = log.list();
  assertEquals([entry.state, entry.site, entry.error?.code], [
    "failed",
    undefined,
    "PERMISSION_DENIED",
  ]);
});
