/// <reference lib="deno.ns" />
/**
 * What the CLI prints of plugin-supplied text (names, descriptions, authors, errors, results):
 * hidden characters escaped (protocol/visible_text.ts), so a plugin or a registry entry cannot
 * reorder a line, hide text, add a fake line or send a terminal escape. One file for every
 * command's formatter.
 */
import { assert, assertEquals } from "../tests/helpers/assert.ts";
import { formatEntry } from "./logs/audit.ts";
import { formatPluginList, type PluginList } from "./plugin/list.ts";
import { formatUpdateCheck } from "./plugin/install.ts";
import { formatSearch } from "./plugin/search.ts";
import { formatStatus } from "./server/status.ts";
import { formatResult } from "./tool/tool.ts";
import type { HealthPayload } from "../protocol/health.ts";
import type { CallToolResult } from "../server/mod.ts";

/** Hidden characters and the controls a terminal acts on. */
// deno-lint-ignore no-control-regex
const HIDDEN = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u200b-\u200f]/;
const RLO = "\u202E";

function noHidden(text: string) {
  assert(!HIDDEN.test(text), `hidden character in ${JSON.stringify(text)}`);
}

Deno.test("hub plugin search: a package's name, description and author are escaped", () => {
  const text = formatSearch({
    query: "jira",
    packages: [{
      name: "hub-plugin-jira",
      version: "1.0.0",
      official: false,
      description: `Jira tools${RLO}laiciffo`,
      author: "mallory\n@tabhub/hub-plugin-jira  9.9.9  (official)",
    }],
  });
  noHidden(text);
  assert(text.includes("Jira tools⟨U+202E⟩laiciffo"), text);
  // The author's line break cannot start a fake result line.
  assert(text.includes("by mallory⟨U+000A⟩@tabhub/hub-plugin-jira"), text);
  assertEquals(text.split("\n").filter((l) => l.includes("(official)")).length, 1);
});

Deno.test("hub plugin list: names, versions, tools and load errors are escaped", () => {
  const list: PluginList = {
    hub: { running: true, port: 1 },
    plugins: [{
      name: "spoof",
      version: `1.0.0${RLO}`,
      source: "local",
      dir: "/tmp/spoof",
      permission: "ask",
      loaded: true,
      toolCount: 1,
      tools: ["delete\u200Beverything"],
    }],
    failed: [{ path: "/tmp/bad", error: "\x1b[2Jbroken" } as PluginList["failed"][number]],
  };
  const text = formatPluginList(list, true);
  noHidden(text);
  assert(text.includes("1.0.0⟨U+202E⟩"), text);
  assert(text.includes("delete⟨U+200B⟩everything"), text);
  assert(text.includes("⟨U+001B⟩[2Jbroken"), text);
});

Deno.test("hub plugin update --check: package names and the error are escaped", () => {
  const text = formatUpdateCheck(
    {
      checkedAt: 1,
      updates: [{
        name: `hub-plugin-x${RLO}`,
        plugin: "x",
        installedVersion: "1.0.0",
        latestVersion: "2.0.0",
      }],
      error: "registry said \x1b]0;owned\x07",
    } as Parameters<typeof formatUpdateCheck>[0],
  );
  noHidden(text);
  assert(text.includes("(hub-plugin-x⟨U+202E⟩)"), text);
});

Deno.test("hub status: failed plugins' paths and errors are escaped", () => {
  const health = {
    version: "0.1.0",
    sdkVersion: "1",
    mode: "production",
    skipPermissions: false,
    uptime: 5,
    extensionConnected: false,
    extensionConnections: 0,
    mcpClients: 0,
    plugins: 0,
    failedPlugins: [{ path: `/x/${RLO}fdp.exe`, error: "bad\rOK" }],
    toolCount: 0,
    browserToolCount: 0,
    pluginToolCount: 0,
    pluginDetails: [],
    discoveryErrors: [{ source: "npm", specifier: "hub-plugin-\u2066y", error: "no" }],
  } as unknown as HealthPayload;
  const text = formatStatus(health, 1);
  noHidden(text);
  assert(text.includes("/x/⟨U+202E⟩fdp.exe: bad⟨U+000D⟩OK"), text);
});

Deno.test("hub status: the debugger setting, when the hub reports it", () => {
  const health = {
    version: "0.1.0",
    sdkVersion: "1",
    mode: "production",
    skipPermissions: false,
    uptime: 5,
    extensionConnected: true,
    extensionConnections: 1,
    mcpClients: 0,
    plugins: 0,
    failedPlugins: [],
    toolCount: 0,
    browserToolCount: 0,
    pluginToolCount: 0,
    pluginDetails: [],
    discoveryErrors: [],
  } as unknown as HealthPayload;
  assert(!formatStatus(health, 1).includes("debugger"));
  const off = formatStatus({ ...health, debugger: "off" }, 1);
  assert(off.includes("  debugger:    off (never attached: hub config set debugger auto"), off);
});

Deno.test("hub audit: the tool and its error message are escaped", () => {
  const text = formatEntry({
    timestamp: "2026-01-01T00:00:00.000Z",
    tool: "spoof__delete_everything",
    plugin: "spoof",
    success: false,
    durationMs: 3,
    error: { code: "INTERNAL", message: `ok${RLO}\x1b[1A done` },
  });
  noHidden(text);
  assert(text.endsWith("INTERNAL: ok⟨U+202E⟩⟨U+001B⟩[1A done"), text);
});

Deno.test("hub tool call: results keep their value, without hidden characters", () => {
  const structured = { name: `report${RLO}fdp.exe` };
  const json = formatResult({ structuredContent: structured, content: [] } as CallToolResult);
  noHidden(json);
  assertEquals(JSON.parse(json), structured);
  const text = formatResult({
    content: [{ type: "text", text: "line one\nline\u200B two\x1b[0m" }],
  } as CallToolResult);
  assertEquals(text, "line one\nline⟨U+200B⟩ two⟨U+001B⟩[0m");
});

Deno.test("hub tool call: a tool's own text is printed as text, its JSON text as the value", () => {
  const value = { tabId: 1, text: '# Shop — http://x/\n- button "Go" [ref=e1]' };
  const outline = formatResult({
    content: [{ type: "text", text: value.text }],
    structuredContent: value,
  } as CallToolResult);
  assertEquals(outline, value.text);
  const json = formatResult({
    content: [{ type: "text", text: JSON.stringify(value) }],
    structuredContent: value,
  } as CallToolResult);
  assertEquals(JSON.parse(json), value);
  assert(json.includes("\n  "), "pretty JSON, as before");
});
