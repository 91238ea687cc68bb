/// <reference lib="deno.ns" />
import { assert, assertEquals, assertMatch } from "../../../../tests/helpers/assert.ts";
import { BROWSER_METHOD_NAMES } from "../../../../protocol/browser_methods/mod.ts";
import type { DispatchParams } from "../../../../protocol/events.ts";
import { failureOf, fakeMethodContext } from "../_test_fixtures.ts";
import { createExtensionLog } from "../extension_log.ts";
import { createDebuggerSessions } from "../debugger_sessions.ts";
import type { BrowserHandlers, MethodContext } from "./browser_method.ts";
import { BROWSER_HANDLERS, dispatchBrowserTool } from "./mod.ts";

const quiet = { debug() {}, info() {}, warn() {}, error() {} };

function context(): MethodContext {
  let now = Date.UTC(2025, 0, 2, 3, 4, 5);
  return {
    ...fakeMethodContext(),
    sessions: createDebuggerSessions(),
    log: createExtensionLog({ console: quiet, clock: () => now++ }),
    state: () => Promise.reject(new Error("not used")),
    reload() {},
  };
}

const params = (method: string, input: Record<string, unknown>): DispatchParams => ({
  dispatchId: "d1",
  tool: "extension_get_logs",
  kind: "browser",
  plugin: "browser",
  method,
  input,
});

// The server declares one tool per method of the same table
// (server/browser_tools/browser_methods_test.ts), so tools, methods and handlers agree.
Deno.test("there is one handler for every method of the table, and no other", () => {
  assertEquals(Object.keys(BROWSER_HANDLERS).sort(), [...BROWSER_METHOD_NAMES].sort());
  for (const handler of Object.values(BROWSER_HANDLERS)) assertEquals(typeof handler, "function");
  // The same holds at compile time: a missing, extra or misspelled name fails `deno check`.
  const { "tabs.list": list, ...withoutList } = BROWSER_HANDLERS;
  // @ts-expect-error tabs.list has no handler
  const missing: BrowserHandlers = withoutList;
  // @ts-expect-error tabs.lst is not a method
  const extra: BrowserHandlers = { ...BROWSER_HANDLERS, "tabs.lst": list };
  const mixed: BrowserHandlers = {
    ...BROWSER_HANDLERS,
    // @ts-expect-error a handler must take its method's input
    "tabs.close": BROWSER_HANDLERS["page.text"],
  };
  assert(missing && extra && mixed);
});

Deno.test("dispatch parses the input with the method's schema: defaults reach the handler", async () => {
  const ctx = context();
  for (let i = 0; i < 120; i++) ctx.log.debug(`line ${i}`);
  const result = await dispatchBrowserTool(params("extension.logs", {}), ctx);
  assert(result.ok);
  const { entries } = result.value as { entries: { message: string }[] };
  assertEquals(entries.length, 100, "the default limit");
  assertEquals(entries.at(-1)?.message, "line 119");
});

Deno.test("input the schema refuses is INVALID_ARGUMENTS with a short message", async () => {
  const bad = await failureOf(
    dispatchBrowserTool(params("extension.logs", { limit: 0 }), context()),
  );
  assertEquals([bad.payload.code, bad.payload.category], ["INVALID_ARGUMENTS", "validation"]);
  assertMatch(
    bad.payload.message,
    /^Invalid arguments for extension_get_logs \(method extension\.logs\): limit: /,
  );
  const many = await failureOf(dispatchBrowserTool(
    params("dom.type", { selector: "", text: 1, tabId: 0, clear: "x", submit: "x" }),
    context(),
  ));
  assertEquals(many.payload.code, "INVALID_ARGUMENTS");
  assertMatch(many.payload.message, /and 2 more\.$/);
  assert(many.payload.message.length < 800, many.payload.message);
});

Deno.test("a method this extension does not know is TOOL_NOT_FOUND", async () => {
  for (const method of ["tabs.teleport", "toString", "__proto__"]) {
    const failed = await failureOf(dispatchBrowserTool(params(method, {}), context()));
    assertEquals(failed.payload.code, "TOOL_NOT_FOUND");
    assertMatch(failed.payload.message, /cannot run extension_get_logs .*Update the extension/);
  }
});
