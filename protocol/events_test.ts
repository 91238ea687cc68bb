/// <reference lib="deno.ns" />
import { z } from "zod";
import { assert, assertEquals, assertMatch } from "../tests/helpers/assert.ts";
import { EXTENSION_TO_HUB_METHODS, HUB_TO_EXTENSION_METHODS } from "./events.ts";
import { describeIssues } from "./param_issues.ts";

/** The zod error of a payload that must not parse. */
function rejection(schema: z.ZodType, value: unknown): z.ZodError {
  const result = schema.safeParse(value);
  assert(!result.success, `expected ${JSON.stringify(value)} to be rejected`);
  return result.error;
}

const ALL_METHODS = { ...HUB_TO_EXTENSION_METHODS, ...EXTENSION_TO_HUB_METHODS };

Deno.test("every method has a type of request or notification and a zod params schema", () => {
  const entries = Object.entries(ALL_METHODS);
  assertEquals(
    entries.length,
    Object.keys(HUB_TO_EXTENSION_METHODS).length + Object.keys(EXTENSION_TO_HUB_METHODS).length,
    "no method name is used in both directions",
  );
  for (const [method, spec] of entries) {
    assert(["request", "notification"].includes(spec.type), `${method}: type ${spec.type}`);
    assert(spec.params instanceof z.ZodType, `${method}: params is a zod schema`);
    if (spec.type === "request") {
      assert("result" in spec && spec.result instanceof z.ZodType, `${method}: result schema`);
    }
  }
});

/**
 * The methods of one direction as docs/protocol.md lists them: each row of the table under
 * `heading` whose first cell names methods in backticks, with the type in its second cell.
 */
function documentedMethods(heading: string): Record<string, string> {
  const doc = Deno.readTextFileSync(new URL("../docs/protocol.md", import.meta.url));
  const start = doc.indexOf(`\n## ${heading}\n`);
  assert(start >= 0, `docs/protocol.md has a section "${heading}"`);
  const end = doc.indexOf("\n## ", start + 1);
  const methods: Record<string, string> = {};
  for (const line of doc.slice(start, end === -1 ? undefined : end).split("\n")) {
    const cells = line.split(/(?<!\\)\|/).map((c) => c.trim());
    if (cells.length < 4 || !cells[1].startsWith("`")) continue;
    for (const [, name] of cells[1].matchAll(/`([^`]+)`/g)) methods[name] = cells[2];
  }
  return methods;
}

Deno.test("the method tables match the documented event lists (docs/protocol.md) and their request/notification types", () => {
  const typeOf = (table: Record<string, { type: string }>) =>
    Object.fromEntries(Object.entries(table).map(([m, s]) => [m, s.type]));
  const sorted = (o: Record<string, string>) => Object.fromEntries(Object.entries(o).sort());
  assertEquals(
    sorted(documentedMethods("Hub → extension")),
    sorted(typeOf(HUB_TO_EXTENSION_METHODS)),
  );
  assertEquals(
    sorted(documentedMethods("Extension → hub")),
    sorted(typeOf(EXTENSION_TO_HUB_METHODS)),
  );
  assertEquals(typeOf(HUB_TO_EXTENSION_METHODS), {
    "sync.full": "notification",
    "plugin.progress": "notification",
    "plugin.update": "notification",
    "plugin.uninstall": "request",
    "plugins.changed": "notification",
    "tool.dispatch": "request",
    "tool.invocationStart": "notification",
    "tool.invocationEnd": "notification",
    "confirmation.request": "notification",
    "extension.reload": "notification",
    pong: "notification",
  });
  assertEquals(typeOf(EXTENSION_TO_HUB_METHODS), {
    "tab.syncAll": "notification",
    "tab.stateChanged": "request",
    "tool.progress": "notification",
    "plugin.log": "notification",
    "config.getState": "request",
    "config.setToolPermission": "request",
    "config.setPluginPermission": "request",
    "config.setSkipPermissions": "request",
    "config.setDebugger": "request",
    "config.setSitePermission": "request",
    "config.setSiteDefaults": "request",
    "config.setPluginSettings": "request",
    "plugin.search": "request",
    "plugin.install": "request",
    "plugin.updateFromRegistry": "request",
    "plugin.remove": "request",
    "plugin.checkUpdates": "request",
    "plugin.removeBySpecifier": "request",
    "folder.open": "request",
    "confirmation.response": "notification",
    ping: "notification",
  });
});

Deno.test("the package payloads parse: progress, search, install, remove, updates in sync.full", () => {
  const progress = { operation: "install", name: "demo", message: "Installing", done: false };
  assertEquals(HUB_TO_EXTENSION_METHODS["plugin.progress"].params.parse(progress), progress);
  const search = {
    query: "mail",
    packages: [{ name: "hub-plugin-mail", version: "1.0.0", official: false }],
  };
  assertEquals(EXTENSION_TO_HUB_METHODS["plugin.search"].result.parse(search), search);
  const installed = {
    name: "hub-plugin-mail",
    plugin: "mail",
    version: "1.1.0",
    previousVersion: "1.0.0",
  };
  assertEquals(
    EXTENSION_TO_HUB_METHODS["plugin.updateFromRegistry"].result.parse(installed),
    installed,
  );
  const removed = { name: "hub-plugin-mail", uninstalled: true, localPluginsRemoved: [] };
  assertEquals(EXTENSION_TO_HUB_METHODS["plugin.removeBySpecifier"].result.parse(removed), removed);
  assertEquals(EXTENSION_TO_HUB_METHODS["folder.open"].result.parse({ opened: "/p" }), {
    opened: "/p",
  });
  const check = { checkedAt: 1, updates: [], error: "registry down" };
  assertEquals(EXTENSION_TO_HUB_METHODS["plugin.checkUpdates"].result.parse(check), check);
  assertMatch(
    describeIssues(
      rejection(HUB_TO_EXTENSION_METHODS["plugin.progress"].params, {
        ...progress,
        operation: "x",
      }),
    ),
    /^params\.operation: /,
  );
  assertMatch(
    describeIssues(rejection(EXTENSION_TO_HUB_METHODS["plugin.install"].params, { name: "" })),
    /^params\.name: /,
  );
});

// --- valid payloads ---

Deno.test("a tool.dispatch payload parses, keeping optional tab, instance and settings", () => {
  const payload = {
    dispatchId: "d1",
    tool: "slack__send_message",
    kind: "plugin",
    plugin: "slack",
    baseTool: "send_message",
    input: { text: "hi" },
    tabId: 12,
    instance: { name: "work", url: "https://work.slack.test" },
    settings: { mode: "fast" },
  };
  assertEquals(HUB_TO_EXTENSION_METHODS["tool.dispatch"].params.parse(payload), payload);
  const browser = {
    dispatchId: "d2",
    tool: "browser_list_tabs",
    kind: "browser",
    plugin: "browser",
    method: "tabs.list",
    input: {},
  };
  assertEquals(HUB_TO_EXTENSION_METHODS["tool.dispatch"].params.parse(browser), browser);
});

Deno.test("a tab.stateChanged payload parses; unknown fields are ignored", () => {
  const payload = {
    plugin: "slack",
    state: "ready",
    tabs: [{ tabId: 3, url: "https://a.test/", title: "A", ready: true }],
  };
  assertEquals(EXTENSION_TO_HUB_METHODS["tab.stateChanged"].params.parse(payload), payload);
  const extra = EXTENSION_TO_HUB_METHODS["tab.stateChanged"].params.parse({ ...payload, later: 1 });
  assertEquals("later" in extra, false);
});

Deno.test("a tool.progress payload parses with and without total and message", () => {
  const schema = EXTENSION_TO_HUB_METHODS["tool.progress"].params;
  assertEquals(schema.parse({ dispatchId: "d", progress: 1 }), { dispatchId: "d", progress: 1 });
  const full = { dispatchId: "d", progress: 2, total: 10, message: "step 2" };
  assertEquals(schema.parse(full), full);
});

Deno.test("a plugin.log payload parses each level", () => {
  const payload = {
    plugin: "slack",
    entries: (["debug", "info", "warn", "error"] as const).map((level, i) => ({
      level,
      message: `m${i}`,
      timestamp: 1000 + i,
    })),
  };
  assertEquals(EXTENSION_TO_HUB_METHODS["plugin.log"].params.parse(payload), payload);
});

Deno.test("a confirmation.response payload parses allow and deny with optional alwaysAllow", () => {
  const schema = EXTENSION_TO_HUB_METHODS["confirmation.response"].params;
  assertEquals(schema.parse({ id: "c1", decision: "allow", alwaysAllow: true }), {
    id: "c1",
    decision: "allow",
    alwaysAllow: true,
  });
  assertEquals(schema.parse({ id: "c1", decision: "deny" }), { id: "c1", decision: "deny" });
});

Deno.test("ping, config.getState and plugin.checkUpdates accept a missing params", () => {
  assertEquals(EXTENSION_TO_HUB_METHODS.ping.params.parse(undefined), undefined);
  assertEquals(EXTENSION_TO_HUB_METHODS["config.getState"].params.parse(undefined), undefined);
  assertEquals(EXTENSION_TO_HUB_METHODS["plugin.checkUpdates"].params.parse({}), {});
});

// --- invalid payloads ---

Deno.test("tab.stateChanged with a string tabId is rejected and the path is named", () => {
  const error = rejection(EXTENSION_TO_HUB_METHODS["tab.stateChanged"].params, {
    plugin: "slack",
    state: "ready",
    tabs: [{ tabId: "3", url: "https://a.test/", title: "A", ready: true }],
  });
  const text = describeIssues(error);
  assertMatch(text, /^params\.tabs\.0\.tabId: /);
});

Deno.test("tab.stateChanged with an unknown state or a tabId of 0 is rejected", () => {
  const schema = EXTENSION_TO_HUB_METHODS["tab.stateChanged"].params;
  assertMatch(
    describeIssues(rejection(schema, { plugin: "p", state: "open", tabs: [] })),
    /^params\.state: /,
  );
  const zero = rejection(schema, {
    plugin: "p",
    state: "ready",
    tabs: [{ tabId: 0, url: "u", title: "t", ready: true }],
  });
  assertMatch(describeIssues(zero), /params\.tabs\.0\.tabId/);
});

Deno.test("tool.dispatch with a wrong kind or non-object input is rejected", () => {
  const schema = HUB_TO_EXTENSION_METHODS["tool.dispatch"].params;
  const base = { dispatchId: "d", tool: "t", kind: "plugin", plugin: "p", input: {} };
  assertMatch(describeIssues(rejection(schema, { ...base, kind: "magic" })), /params\.kind/);
  assertMatch(describeIssues(rejection(schema, { ...base, input: [1] })), /params\.input/);
  assertMatch(describeIssues(rejection(schema, { ...base, tabId: 1.5 })), /params\.tabId/);
});

Deno.test("tool.progress without a numeric progress is rejected", () => {
  const error = rejection(EXTENSION_TO_HUB_METHODS["tool.progress"].params, {
    dispatchId: "d",
    progress: "half",
  });
  assertMatch(describeIssues(error), /^params\.progress: /);
});

Deno.test("plugin.log refuses an unknown level and more than 1000 entries", () => {
  const schema = EXTENSION_TO_HUB_METHODS["plugin.log"].params;
  const bad = rejection(schema, { plugin: "p", entries: [{ level: "trace", message: "m" }] });
  assertMatch(describeIssues(bad), /^params\.entries\.0\.level: /);
  const many = Array.from({ length: 1001 }, () => ({ level: "info", message: "m" }));
  assertMatch(describeIssues(rejection(schema, { plugin: "p", entries: many })), /params\.entries/);
  assertEquals(schema.safeParse({ plugin: "p", entries: many.slice(0, 1000) }).success, true);
});

Deno.test("confirmation.response refuses a decision other than allow/deny", () => {
  const schema = EXTENSION_TO_HUB_METHODS["confirmation.response"].params;
  assertMatch(
    describeIssues(rejection(schema, { id: "c", decision: "maybe" })),
    /^params\.decision: /,
  );
  assertMatch(
    describeIssues(rejection(schema, { id: "c", decision: "allow", alwaysAllow: "yes" })),
    /^params\.alwaysAllow: /,
  );
});

Deno.test("describeIssues joins every issue with '; ' and names a top-level problem 'params'", () => {
  const error = rejection(EXTENSION_TO_HUB_METHODS["confirmation.response"].params, {
    decision: 1,
  });
  const parts = describeIssues(error).split("; ");
  assertEquals(parts.length, 2);
  assert(parts.some((p) => p.startsWith("params.id: ")));
  assert(parts.some((p) => p.startsWith("params.decision: ")));
  const top = rejection(EXTENSION_TO_HUB_METHODS["tool.progress"].params, "not an object");
  assertMatch(describeIssues(top), /^params: /);
});

Deno.test("describeIssues names at most five issues, each cut, then says how many more", () => {
  const schema = z.object({ tags: z.array(z.string()) });
  const parsed = schema.safeParse({ tags: Array.from({ length: 10_000 }, () => 0) });
  assert(!parsed.success);
  const text = describeIssues(parsed.error);
  assertMatch(text, /^params\.tags\.0: /);
  assertMatch(text, /…and 9995 more$/);
  assert(text.length < 5 * 300 + 100, `${text.length} characters`);
});
