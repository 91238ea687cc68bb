/// <reference lib="deno.ns" />
import { failureOf, withChrome } from "../_test_fixtures.ts";
import { assertEquals, assertMatch } from "../../../../tests/helpers/assert.ts";
import { createExtensionLog } from "../extension_log.ts";
import { createTabCalls } from "../tab_calls.ts";
import { createTabDebugger } from "./console_debugger.ts";
import { fakeTabChrome, listenerCount } from "./_fake_tab_events.ts";
import type { MethodContext } from "./browser_method.ts";
import { parsedInput } from "./_parsed_input.ts";
import { isNoHistoryError, tabsBack, tabsForward } from "./tabs_history.ts";

const quiet = { debug() {}, info() {}, warn() {}, error() {} };
const NO_ENTRY = new Error("Cannot find a next page in history.");

function context(): MethodContext {
  return {
    calls: createTabCalls(),
    debugger: createTabDebugger(),
    log: createExtensionLog({ console: quiet }),
    state: () => {
      throw new Error("not used");
    },
    reload() {},
  };
}

/**
 * Tab 4 at http://app/a: chrome.tabs.goBack/goForward fail with `error`; the page-side step
 * answers `page` (and, for "maybe", starts a navigation when `moves`).
 */
function historyChrome(error: Error, page: string | Error = "none", moves = false) {
  const fake = fakeTabChrome({ id: 4, windowId: 1, url: "http://app/a", title: "A" });
  const steps: string[] = [];
  const fail = () => Promise.reject(error);
  return {
    fake,
    steps,
    chrome: {
      ...fake,
      tabs: { ...fake.tabs, goBack: fail, goForward: fail },
      scripting: {
        executeScript: (options: { args: string[] }) => {
          steps.push(options.args[0]);
          if (page instanceof Error) return Promise.reject(page);
          if (moves) fake.webNavigation.onBeforeNavigate.emit({ tabId: 4, frameId: 0 });
          return Promise.resolve([{ result: page }]);
        },
      },
    },
  };
}

Deno.test("isNoHistoryError recognizes Chromium's message", () => {
  assertEquals(isNoHistoryError(NO_ENTRY), true);
  assertEquals(isNoHistoryError(new Error("No tab with id: 3.")), false);
});

Deno.test("no entry for Chromium nor the page is NO_HISTORY (validation)", async () => {
  for (const page of ["none", new Error("Cannot access a chrome:// URL")]) {
    const { chrome, steps, fake } = historyChrome(NO_ENTRY, page);
    await withChrome(chrome, async () => {
      for (const [method, direction] of [[tabsBack, "back"], [tabsForward, "forward"]] as const) {
        const input = parsedInput(`tabs.${direction}`, { tabId: 4 });
        const failure = await failureOf(method(input, context()));
        assertEquals([failure.payload.code, failure.payload.category], [
          "NO_HISTORY",
          "validation",
        ]);
        assertMatch(failure.message, new RegExp(`Tab 4 \\(http://app/a\\).*go ${direction}`));
      }
      assertEquals(steps, ["back", "forward"], "the page was asked too");
      assertEquals(listenerCount(fake), 0);
    });
  }
});

Deno.test("entries Chromium skips are reached through the page's history", async () => {
  const sure = historyChrome(NO_ENTRY, "going");
  await withChrome(sure.chrome, async () => {
    assertEquals(
      await tabsBack(parsedInput("tabs.back", { tabId: 4, waitForLoad: false }), context()),
      {
        tabId: 4,
        url: "http://app/a",
        title: "A",
        loaded: false,
      },
    );
    assertEquals(sure.steps, ["back"]);
  });
  // Another origin's entry: the step counts once a navigation starts.
  const moved = historyChrome(NO_ENTRY, "maybe", true);
  await withChrome(moved.chrome, async () => {
    const value = await tabsForward(
      parsedInput("tabs.forward", { tabId: 4, waitForLoad: false }),
      context(),
    );
    assertEquals((value as { tabId: number }).tabId, 4);
    assertEquals(listenerCount(moved.fake), 0);
  });
});

Deno.test("another browser error is EXTENSION_ERROR; an unknown tab is TAB_NOT_FOUND", async () => {
  const { chrome, steps } = historyChrome(new Error("Something else broke"));
  await withChrome(chrome, async () => {
    const failure = await failureOf(
      tabsBack(parsedInput("tabs.back", { tabId: 4, waitForLoad: false }), context()),
    );
    assertEquals(failure.payload.code, "EXTENSION_ERROR");
    assertMatch(failure.message, /Something else broke/);
    assertEquals(steps, [], "only a no-history answer falls back to the page");
    const missing = await failureOf(
      tabsForward(parsedInput("tabs.forward", { tabId: 5 }), context()),
    );
    assertEquals(missing.payload.code, "TAB_NOT_FOUND");
  });
});
