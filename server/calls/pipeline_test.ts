/**
 * `createPipeline` on its own, with fakes for everything around it: a scripted link, dispatches
 * and confirmations, and a recording audit log. The real catalog decides permissions and checks
 * arguments. The suites in tests/pipeline_*_test.ts run the same pipeline end to end over HTTP,
 * MCP and `/ws`.
 */
import { type HubError, hubError, restStatus } from "../../protocol/errors.ts";
import { assert, assertEquals, assertMatch } from "../../tests/helpers/assert.ts";
import { defaultConfig, type HubConfig, type Permission } from "../../core/config/schema.ts";
import type { ExtensionLink } from "../ws/extension_link_interface.ts";
import { createTabStates } from "../plugins/tab_states.ts";
import type { ManagementContext } from "../management/hub_tool.ts";
import { HUB_TOOLS } from "../management/mod.ts";
import { registryOf } from "../plugins/registry.ts";
import { registeredPlugin, registeredTool } from "../plugins/_test_registry.ts";
import { createCatalog } from "./catalog.ts";
import type { Decision } from "./confirmations_interface.ts";
import type { Dispatches } from "./dispatches_interface.ts";
import { MAX_IN_FLIGHT_PER_PLUGIN } from "./in_flight.ts";
import { createPipeline } from "./pipeline.ts";
import { fakePipelineDeps } from "./_test_pipeline.ts";
import type { CallOutcome } from "./pipeline_interface.ts";

/** `demo__echo` needs a string `text`; `demo__other` takes anything. */
const echo = registeredTool("demo", "echo", {
  validate: (input) =>
    typeof (input as Record<string, unknown>).text === "string"
      ? { valid: true, errors: [] }
      : { valid: false, errors: ["text: must be string"] },
});
const demo = registeredPlugin("demo", {
  tools: [echo, registeredTool("demo", "other")],
  settings: { mode: "fast" },
});
const DEMO_TAB = { tabId: 7, url: "https://demo.test/home", title: "Demo", ready: true };

interface Options {
  permission?: Permission;
  /** Per-tool overrides of the demo plugin. */
  tools?: Record<string, Permission>;
  reviewedVersion?: string;
  connected?: boolean;
  tabs?: (typeof DEMO_TAB)[];
  decision?: Decision;
  dispatch?: Dispatches["dispatch"];
  instances?: Record<string, string>;
}

/** A pipeline over fakes, and the records of what it did to them. */
function setup(options: Options = {}) {
  const plugin = { ...demo, instances: options.instances ?? {} };
  const config: HubConfig = defaultConfig();
  config.permissions.demo = {
    permission: options.permission ?? "auto",
    tools: options.tools ?? {},
    ...(options.reviewedVersion ? { reviewedVersion: options.reviewedVersion } : {}),
  };
  const registry = registryOf([plugin]);
  const catalog = createCatalog({
    registry: () => registry,
    config: () => config,
    skipPermissions: () => false,
    browserTools: [],
    hubTools: HUB_TOOLS,
  });
  const notes: { method: string; params: Record<string, unknown> }[] = [];
  const link: ExtensionLink = {
    attach() {},
    isConnected: () => options.connected ?? true,
    request: () => Promise.reject(new Error("the pipeline sends requests through its parts")),
    notify(method, params) {
      notes.push({ method, params: params as Record<string, unknown> });
      return true;
    },
    onConnect() {},
    onDisconnect() {},
    disconnect() {},
  };
  const tabs = createTabStates();
  tabs.set({ plugin: "demo", state: "ready", tabs: options.tabs ?? [DEMO_TAB] });
  const dispatched: Parameters<Dispatches["dispatch"]>[0][] = [];
  const dispatches: Dispatches = {
    dispatch(params, dispatchOptions) {
      dispatched.push(params);
      if (options.dispatch) return options.dispatch(params, dispatchOptions);
      dispatchOptions?.onReply?.(true); // as the real dispatches does on the extension's answer
      return Promise.resolve({ value: { echoed: params.input }, tabId: 7 });
    },
    progress() {},
    active: () => 0,
  };
  const management: ManagementContext = {
    registry: () => registry,
    config: () => config,
    tabs,
    extensionConnected: () => options.connected ?? true,
    markReviewed: () => Promise.resolve(config),
  };
  let now = 1_000_000;
  const { deps, asked, audited, allowed } = fakePipelineDeps({
    catalog,
    link,
    tabs,
    dispatches,
    management,
    allowSite: () => Promise.reject(new Error("no site questions here")),
    clock: () => (now += 5),
  }, { decisions: options.decision && [options.decision] });
  const pipeline = createPipeline(deps);
  const inFlight = deps.inFlight;
  return { pipeline, notes, dispatched, asked, audited, allowed, inFlight };
}

function errorOf(outcome: CallOutcome): HubError {
  assert(!outcome.ok, `expected a failed call, got ${JSON.stringify(outcome)}`);
  return outcome.error;
}

// --- finding the tool ---

Deno.test("an unknown tool is TOOL_NOT_FOUND, with no audit entry and no notification", async () => {
  const s = setup();
  const error = errorOf(await s.pipeline.call({ name: "demo__nope", args: {} }));
  assertEquals([error.payload.code, restStatus(error)], ["TOOL_NOT_FOUND", 404]);
  assertMatch(error.message, /No tool "demo__nope"\. List the tools/);
  assertEquals([s.audited.length, s.notes.length, s.dispatched.length], [0, 0, 0]);
});

// --- cheap refusals ---

Deno.test("a tool that is off is refused before its arguments are read, and audited", async () => {
  const s = setup({ permission: "off" });
  const error = errorOf(await s.pipeline.call({ name: "demo__echo", args: "not even an object" }));
  assertEquals([error.payload.code, restStatus(error)], ["PERMISSION_OFF", 403]);
  assertMatch(error.message, /hub config set tool-permission\.demo\.echo ask/);
  assertEquals([s.dispatched.length, s.asked.length], [0, 0]);
  assertEquals(s.audited.length, 1);
  assertEquals(s.audited[0].error?.code, "PERMISSION_OFF");
});

Deno.test("a plugin changed since its review is off, and the error says how to review it", async () => {
  const s = setup({ permission: "auto", reviewedVersion: "0.9.0" });
  const error = errorOf(await s.pipeline.call({ name: "demo__echo", args: { text: "hi" } }));
  assertEquals(error.payload.code, "PERMISSION_OFF");
  assertMatch(error.message, /changed to version 1\.0\.0 since it was reviewed/);
  assertMatch(error.message, /plugin_inspect.*plugin_mark_reviewed/);
});

Deno.test("a per-tool override beats the plugin's permission", async () => {
  const s = setup({ permission: "auto", tools: { echo: "off" } });
  assertEquals(
    errorOf(await s.pipeline.call({ name: "demo__echo", args: { text: "x" } })).payload.code,
    "PERMISSION_OFF",
  );
  assertEquals((await s.pipeline.call({ name: "demo__other", args: {} })).ok, true);
});

Deno.test("an unusable request body is INVALID_ARGUMENTS with the transport's status", async () => {
  const s = setup();
  const error = errorOf(
    await s.pipeline.call({
      name: "demo__echo",
      args: {},
      badRequest: { message: "The body is over 10 MB.", status: 413 },
    }),
  );
  assertEquals([error.payload.code, restStatus(error), error.message], [
    "INVALID_ARGUMENTS",
    413,
    "The body is over 10 MB.",
  ]);
  assertEquals(s.audited.length, 1);
});

// --- validation ---

Deno.test("arguments that are not an object are INVALID_ARGUMENTS", async () => {
  const s = setup();
  for (const args of [[], "text", 3]) {
    const error = errorOf(await s.pipeline.call({ name: "demo__echo", args }));
    assertEquals([error.payload.code, restStatus(error)], ["INVALID_ARGUMENTS", 400]);
    assertEquals(error.message, "Arguments of demo__echo must be a JSON object.");
  }
  assertEquals(s.dispatched.length, 0);
  // Refused before dispatch: the extension hears of each end, and of no start.
  assertEquals(s.notes.map((n) => n.method), Array(3).fill("tool.invocationEnd"));
});

Deno.test("invalid arguments list the problems in the message and in details", async () => {
  const s = setup({ permission: "ask" });
  const error = errorOf(await s.pipeline.call({ name: "demo__echo", args: { text: 1 } }));
  assertEquals(error.payload.code, "INVALID_ARGUMENTS");
  assertEquals(error.message, "Invalid arguments for demo__echo: text: must be string.");
  assertEquals(error.payload.details, { errors: ["text: must be string"] });
  assertEquals(s.asked.length, 0, "nobody is asked about an invalid call");
});

Deno.test("missing arguments count as an empty object", async () => {
  const s = setup();
  assertEquals((await s.pipeline.call({ name: "demo__other", args: undefined })).ok, true);
  assertEquals(s.dispatched[0].input, {});
});

// --- ask and auto ---

Deno.test("auto dispatches at once, with the plugin's settings and the base tool name", async () => {
  const s = setup({ permission: "auto" });
  const outcome = await s.pipeline.call({ name: "demo__echo", args: { text: "hi", tabId: 7 } });
  assertEquals(outcome, {
    ok: true,
    value: { echoed: { text: "hi" } },
    // What a plugin answers comes from its page: marked as such, with the tab's origin.
    pageContent: { origin: "https://demo.test", untrusted: true },
  });
  assertEquals(s.asked.length, 0);
  assertEquals(s.dispatched, [{
    dispatchId: s.dispatched[0].dispatchId,
    tool: "demo__echo",
    kind: "plugin",
    plugin: "demo",
    baseTool: "echo",
    input: { text: "hi" },
    settings: { mode: "fast" },
    tabId: 7,
  }]);
});

Deno.test("ask: the person sees the call, and an allowed call runs", async () => {
  const s = setup({ permission: "ask" });
  const outcome = await s.pipeline.call({ name: "demo__echo", args: { text: "hi" } });
  assertEquals(outcome.ok, true);
  assertEquals(s.asked.length, 1);
  const { id, ...request } = s.asked[0];
  assertEquals(request, { tool: "demo__echo", plugin: "demo", parameters: { text: "hi" } });
  assertEquals(s.dispatched[0].dispatchId, id, "the confirmation and the dispatch share the id");
  assertEquals([s.dispatched.length, s.allowed.length], [1, 0]);
});

Deno.test("ask: a denied call is PERMISSION_DENIED, never dispatched, and audited", async () => {
  const s = setup({ permission: "ask", decision: { allow: false, alwaysAllow: false } });
  const error = errorOf(await s.pipeline.call({ name: "demo__echo", args: { text: "hi" } }));
  assertEquals([error.payload.code, restStatus(error)], ["PERMISSION_DENIED", 403]);
  assertEquals(error.message, "The user denied this call of demo__echo.");
  assertEquals(s.dispatched.length, 0);
  assertEquals(s.audited.map((e) => e.error?.code), ["PERMISSION_DENIED"]);
});

Deno.test("ask: 'always allow' is stored for that one tool, then the call runs", async () => {
  const s = setup({ permission: "ask", decision: { allow: true, alwaysAllow: true } });
  assertEquals((await s.pipeline.call({ name: "demo__echo", args: { text: "hi" } })).ok, true);
  assertEquals(s.allowed.map((t) => [t.group, t.permissionKey]), [["demo", "echo"]]);
  assertEquals(s.dispatched.length, 1);
});

// --- concurrency ---

Deno.test("at the per-plugin limit a call is CONCURRENCY_LIMIT; a finished call frees its slot", async () => {
  const s = setup();
  const held = Array.from({ length: MAX_IN_FLIGHT_PER_PLUGIN }, () => s.inFlight.acquire("demo"));
  const error = errorOf(await s.pipeline.call({ name: "demo__other", args: {} }));
  assertEquals([error.payload.code, restStatus(error)], ["CONCURRENCY_LIMIT", 429]);
  assertMatch(error.message, /the limit is 25 at once/);
  held[0]!();
  assertEquals((await s.pipeline.call({ name: "demo__other", args: {} })).ok, true);
  assertEquals(
    s.inFlight.count("demo"),
    MAX_IN_FLIGHT_PER_PLUGIN - 1,
    "the call released its slot",
  );
});

Deno.test("a failed dispatch releases its slot too", async () => {
  const s = setup({ dispatch: () => Promise.reject(hubError("TIMEOUT", "too slow")) });
  errorOf(await s.pipeline.call({ name: "demo__other", args: {} }));
  assertEquals(s.inFlight.count("demo"), 0);
});

// --- tabs and the extension ---

Deno.test("no extension: EXTENSION_NOT_CONNECTED before any dispatch", async () => {
  const s = setup({ connected: false });
  const error = errorOf(await s.pipeline.call({ name: "demo__other", args: {} }));
  assertEquals([error.payload.code, restStatus(error)], ["EXTENSION_NOT_CONNECTED", 503]);
  assertEquals(s.dispatched.length, 0);
});

Deno.test("no tab of the plugin: TAB_CLOSED from the reported tab states, no round trip", async () => {
  const s = setup({ tabs: [] });
  const error = errorOf(await s.pipeline.call({ name: "demo__other", args: {} }));
  assertEquals(error.payload.code, "TAB_CLOSED");
  assertMatch(error.message, /^No Demo tab is open\. Open https:\/\/demo\.test\/\* in the browser/);
  assertEquals(s.dispatched.length, 0);
});

Deno.test("the only instance of a plugin goes with the dispatch, resolved once", async () => {
  const s = setup({ instances: { main: "https://demo.test" } });
  assertEquals((await s.pipeline.call({ name: "demo__other", args: {} })).ok, true);
  assertEquals(s.dispatched[0].instance, { name: "main", url: "https://demo.test" });
});

Deno.test("an unknown instance is INVALID_ARGUMENTS naming the instances", async () => {
  const s = setup({ instances: { main: "https://demo.test" } });
  const error = errorOf(await s.pipeline.call({ name: "demo__other", args: { instance: "x" } }));
  assertEquals(error.payload.code, "INVALID_ARGUMENTS");
  assertMatch(error.message, /Demo has no instance "x" \(instances: main\)/);
});

// --- outcomes, audit and notifications ---

Deno.test("a successful call is audited; the extension's answer is its end, nothing more is sent", async () => {
  const s = setup();
  await s.pipeline.call({ name: "demo__echo", args: { text: "hi" } });
  assertEquals(s.audited, [{
    timestamp: new Date(1_000_005).toISOString(),
    tool: "demo__echo",
    plugin: "demo",
    success: true,
    durationMs: 5,
    site: "https://demo.test",
  }]);
  assertEquals(s.notes, [], "the dispatch and its reply tell the extension the whole call");
  assertMatch(s.dispatched[0].dispatchId!, /^[0-9a-f-]{36}$/);
});

Deno.test("a failed call's audit entry and end notification carry its error", async () => {
  const s = setup({ dispatch: () => Promise.reject(hubError("TAB_CLOSED", "It closed.")) });
  const error = errorOf(await s.pipeline.call({ name: "demo__other", args: {} }));
  assertEquals(error.payload.code, "TAB_CLOSED");
  assertEquals(s.audited[0].success, false);
  assertEquals(s.audited[0].error, {
    code: "TAB_CLOSED",
    message: "It closed.",
    category: "unavailable",
  });
  // Not the extension's answer (the hub's timeout, a disconnect...): the extension is told.
  assertEquals(s.notes, [{
    method: "tool.invocationEnd",
    params: {
      invocationId: s.dispatched[0].dispatchId,
      tool: "demo__other",
      plugin: "demo",
      success: false,
      durationMs: 5,
      error: error.payload,
    },
  }]);
});

Deno.test("an end is sent only when the outcome is not the one the extension answered", async () => {
  const refused = setup({
    dispatch: (_params, options) => {
      options?.onReply?.(false);
      return Promise.reject(hubError("TAB_NAVIGATED", "It went away."));
    },
  });
  await refused.pipeline.call({ name: "demo__other", args: {} });
  assertEquals(refused.notes, [], "the extension answered this failure itself");

  const failedAfter = setup({
    dispatch: (_params, options) => {
      options?.onReply?.(true);
      return Promise.reject(new Error("could not shape the result"));
    },
  });
  await failedAfter.pipeline.call({ name: "demo__other", args: {} });
  assertEquals(failedAfter.notes.map((n) => [n.method, n.params.success]), [
    ["tool.invocationEnd", false],
  ]);
});

Deno.test("refusals before dispatch send one end and no start", async () => {
  const s = setup({ permission: "off" });
  const error = errorOf(await s.pipeline.call({ name: "demo__echo", args: { text: "hi" } }));
  assertEquals(s.notes.map((n) => n.method), ["tool.invocationEnd"]);
  assertEquals(s.notes[0].params.error, error.payload);
});

Deno.test("an ask call's confirmation id is its dispatch id", async () => {
  const s = setup({ permission: "ask" });
  await s.pipeline.call({ name: "demo__echo", args: { text: "hi" } });
  assertEquals(s.asked[0].id, s.dispatched[0].dispatchId);
});

Deno.test("an unexpected exception becomes INTERNAL with its message", async () => {
  const s = setup({ dispatch: () => Promise.reject(new Error("boom")) });
  const error = errorOf(await s.pipeline.call({ name: "demo__other", args: {} }));
  assertEquals([error.payload.code, restStatus(error)], ["INTERNAL", 500]);
  assertEquals(error.message, "Internal error: boom");
});

Deno.test("a management tool runs in the hub; its domain failure is the tool's own error", async () => {
  const s = setup();
  const inspected = await s.pipeline.call({ name: "plugin_inspect", args: { plugin: "demo" } });
  assert(inspected.ok);
  assertEquals((inspected.value as { version: string }).version, "1.0.0");
  const error = errorOf(
    await s.pipeline.call({ name: "plugin_inspect", args: { plugin: "nope" } }),
  );
  assertEquals([error.payload.code, error.payload.category, restStatus(error)], [
    "PLUGIN_NOT_FOUND",
    "not_found",
    422,
  ]);
  assertEquals(s.dispatched.length, 0);
  // The hub ran them: the extension hears of each start and end.
  assertEquals(s.notes.map((n) => n.method), [
    "tool.invocationStart",
    "tool.invocationEnd",
    "tool.invocationStart",
    "tool.invocationEnd",
  ]);
  assertEquals(s.audited.map((e) => [e.plugin, e.success]), [["hub", true], ["hub", false]]);
});
