import { HubError, restStatus } from "../../protocol/errors.ts";
import { assert, assertEquals, assertMatch } from "../../tests/helpers/assert.ts";
import type { PluginTabs } from "../plugins/tab_states_interface.ts";
import type { RegisteredPlugin } from "../plugins/registry_interface.ts";
import { registeredPlugin } from "../plugins/_test_registry.ts";
import { checkTabs, resolveInstance, type TabRequest } from "./tab_target.ts";

function plugin(instances: Record<string, string> = {}): RegisteredPlugin {
  return registeredPlugin("tracker", {
    urlPatterns: ["https://tracker.test/*", "https://*.tracker.test/*"],
    instances,
    adapterFile: "tracker-abc.js",
    adapterHash: "abc",
  });
}

const tab = (tabId: number, url: string, ready = true) => ({
  tabId,
  url,
  title: `T${tabId}`,
  ready,
});

function tabs(...list: ReturnType<typeof tab>[]): PluginTabs {
  if (list.length === 0) return { state: "closed", tabs: [] };
  return { state: list.some((t) => t.ready) ? "ready" : "unavailable", tabs: list };
}

/** The HubError checkTabs throws, checked for code, category and HTTP status. */
function failure(
  p: RegisteredPlugin,
  t: PluginTabs,
  request: TabRequest,
  code: string,
  category: string,
  status: number,
): HubError {
  let caught: unknown;
  try {
    checkTabs(p, t, request);
  } catch (error) {
    caught = error;
  }
  assert(caught instanceof HubError, `expected a HubError, got ${caught}`);
  assertEquals(caught.payload.code, code);
  assertEquals(caught.payload.category, category);
  assertEquals(restStatus(caught), status);
  assertEquals(caught.message, caught.payload.message);
  return caught;
}

const TWO = { work: "https://work.tracker.test", home: "https://tracker.test/home" };

// --- one plugin, no instances ---

Deno.test("closed plugin: TAB_CLOSED (503, unavailable) naming the URL patterns to open", () => {
  const error = failure(plugin(), tabs(), {}, "TAB_CLOSED", "unavailable", 503);
  assertEquals(error.payload.retryable, true);
  assertMatch(error.message, /^No Tracker tab is open\. Open /);
  assertMatch(
    error.message,
    /Open https:\/\/tracker\.test\/\* or https:\/\/\*\.tracker\.test\/\* in the browser/,
  );
});

Deno.test("tabs open but none ready: TAB_UNAVAILABLE naming the tab's URL", () => {
  const t = tabs(tab(4, "https://tracker.test/a", false), tab(5, "https://tracker.test/b", false));
  const error = failure(plugin(), t, {}, "TAB_UNAVAILABLE", "unavailable", 503);
  assertMatch(error.message, /A Tracker tab is open \(https:\/\/tracker\.test\/a\)/);
  assertMatch(error.message, /not signed in/);
});

Deno.test("any ready tab lets the call through", () => {
  const t = tabs(tab(4, "https://tracker.test/a", false), tab(5, "https://tracker.test/b"));
  checkTabs(plugin(), t, {});
  checkTabs(plugin(), t, { tabId: 5 });
});

Deno.test("a tabId that is not among the plugin's tabs: TAB_NOT_FOUND listing the valid ids", () => {
  const t = tabs(tab(4, "https://tracker.test/a"), tab(9, "https://tracker.test/b"));
  const error = failure(plugin(), t, { tabId: 7 }, "TAB_NOT_FOUND", "not_found", 404);
  assertEquals(error.payload.retryable, false);
  assertMatch(error.message, /^Tab 7 is not a Tracker tab \(valid tabIds: 4, 9\)/);
  assertMatch(error.message, /plugin_list_tabs/);
});

Deno.test("a tabId while no tab is open: TAB_NOT_FOUND saying none are open", () => {
  const error = failure(plugin(), tabs(), { tabId: 3 }, "TAB_NOT_FOUND", "not_found", 404);
  assertMatch(error.message, /valid tabIds: none open/);
});

Deno.test("a tabId of a tab that is not ready: TAB_UNAVAILABLE for that tab", () => {
  const t = tabs(tab(4, "https://tracker.test/ready"), tab(6, "https://tracker.test/login", false));
  const error = failure(plugin(), t, { tabId: 6 }, "TAB_UNAVAILABLE", "unavailable", 503);
  assertMatch(error.message, /\(https:\/\/tracker\.test\/login\)/);
});

// --- two instances ---

Deno.test("an instance with no tab open: TAB_CLOSED naming the instance and its URL", () => {
  const t = tabs(tab(4, "https://tracker.test/home/board"));
  const error = failure(
    plugin(TWO),
    t,
    { instance: "work" },
    "TAB_CLOSED",
    "unavailable",
    503,
  );
  assertMatch(error.message, /^No Tracker \(work\) tab is open\./);
  assertMatch(error.message, /Open https:\/\/work\.tracker\.test in the browser/);
  assertEquals(error.message.includes("*"), false, "names the instance URL, not the patterns");
  checkTabs(plugin(TWO), t, { instance: "home" });
});

Deno.test("an instance whose tabs are not ready: TAB_UNAVAILABLE for that instance", () => {
  const t = tabs(
    tab(4, "https://tracker.test/home/board"),
    tab(5, "https://work.tracker.test/x", false),
  );
  const error = failure(
    plugin(TWO),
    t,
    { instance: "work" },
    "TAB_UNAVAILABLE",
    "unavailable",
    503,
  );
  assertMatch(error.message, /A Tracker \(work\) tab is open \(https:\/\/work\.tracker\.test\/x\)/);
});

Deno.test("a tabId of another instance's tab: INVALID_ARGUMENTS (400)", () => {
  const t = tabs(tab(4, "https://tracker.test/home/board"), tab(5, "https://work.tracker.test/x"));
  const error = failure(
    plugin(TWO),
    t,
    { instance: "work", tabId: 4 },
    "INVALID_ARGUMENTS",
    "validation",
    400,
  );
  assertMatch(error.message, /^Tab 4 \(https:\/\/tracker\.test\/home\/board\) does not belong/);
  assertMatch(error.message, /instance "work" \(https:\/\/work\.tracker\.test\)/);
  checkTabs(plugin(TWO), t, { instance: "work", tabId: 5 });
});

Deno.test("checkTabs returns the instance the call runs for, resolved once", () => {
  const t = tabs(tab(4, "https://tracker.test/home/board"), tab(5, "https://work.tracker.test/x"));
  assertEquals(checkTabs(plugin(TWO), t, { instance: "work" }), {
    name: "work",
    url: "https://work.tracker.test",
  });
  assertEquals(checkTabs(plugin({ solo: "https://tracker.test" }), t, {}), {
    name: "solo",
    url: "https://tracker.test",
  });
  assertEquals(checkTabs(plugin(), t, { tabId: 4 }), undefined);
});

Deno.test("a tabId of a tab matching no instance is refused for an instance call", () => {
  const t = tabs(tab(8, "https://tracker.test/elsewhere"));
  failure(plugin(TWO), t, { instance: "home", tabId: 8 }, "INVALID_ARGUMENTS", "validation", 400);
});

// --- resolveInstance ---

Deno.test("resolveInstance picks the only instance when there is exactly one", () => {
  const one = plugin({ default: "https://self.tracker.test" });
  assertEquals(resolveInstance(one), { name: "default", url: "https://self.tracker.test" });
});

Deno.test("resolveInstance gives none when the plugin has no instances", () => {
  assertEquals(resolveInstance(plugin()), undefined);
});

Deno.test("resolveInstance needs a name when there are several, and uses the requested one", () => {
  assertEquals(resolveInstance(plugin(TWO)), undefined);
  assertEquals(resolveInstance(plugin(TWO), "home"), {
    name: "home",
    url: "https://tracker.test/home",
  });
});

Deno.test({
  name: "an unknown instance name is refused as INVALID_ARGUMENTS, never 'Open undefined'",
  fn: () => {
    const one = plugin({ default: "https://self.tracker.test" });
    const t = tabs(tab(1, "https://self.tracker.test/a"));
    for (const p of [one, plugin(), plugin(TWO)]) {
      for (const request of [{ instance: "bogus" }, { instance: "bogus", tabId: 1 }]) {
        const error = failure(p, t, request, "INVALID_ARGUMENTS", "validation", 400);
        assertEquals(error.message.includes("undefined"), false, error.message);
        assertMatch(error.message, /bogus/);
      }
    }
  },
});
