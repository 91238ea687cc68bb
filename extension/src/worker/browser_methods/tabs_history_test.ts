/// <reference lib="deno.ns" />
import { failureOf, fakeMethodContext, withChrome } from "../_test_fixtures.ts";
import { assertEquals, assertMatch } from "../../../../tests/helpers/assert.ts";
import { createExtensionLog } from "../extension_log.ts";
import { createDebuggerSessions } from "../debugger_sessions.ts";
import { fakeTabChrome, listenerCount } from "./_fake_tab_events.ts";
import type { MethodContext } from "./browser_method.ts";
import { parsedInput } from "./_parsed_input.ts";
import { isNoHistoryError, tabsBack, tabsForward } from "./tabs_history.ts";

const quiet = { debug() {}, info() {}, warn() {}, error() {} };
const NO_ENTRY = new Error("Cannot find a next page in history.");

function context(): MethodContext {
  return {
    ...fakeMethodContext(),
    sessions: createDebuggerSessions(),
    log: createExtensionLog({ console: quiet }),
    state: () => {
      throw new Error("not used");
    },
    reload() {},
  };
}

/**
 * Tab 4 at http://app/a: the page-side step answers `page` (and, for "maybe", starts a navigation
 * when `moves`); chrome.tabs.goBack/goForward, used only when no script runs in the page, fail
 * with `error` (undefined: they succeed).
 */
function historyChrome(error: Error | undefined, page: string | Error = "none", moves = false) {
  const fake = fakeTabChrome({ id: 4, windowId: 1, url: "http://app/a", title: "A" });
  const steps: string[] = [];
  const browser = (direction: string) => () => {
    steps.push(`browser ${direction}`);
    return error ? Promise.reject(error) : Promise.resolve();
  };
  return {
    fake,
    steps,
    chrome: {
      ...fake,
      tabs: { ...fake.tabs, goBack: browser("back"), goForward: browser("forward") },
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

/**
 * A tab whose history holds `urls`, at the last one, every entry left without a user gesture (as
 * after browser_navigate_tab): Chromium's own step skips those entries, the page's steps one.
 */
function tabWithHistory(urls: string[]) {
  const fake = fakeTabChrome({ id: 4, windowId: 1, url: urls.at(-1), title: "" });
  let at = urls.length - 1;
  const skippable = new Set(urls.map((_, i) => i).slice(0, -1));
  const go = (to: number) => {
    at = to;
    fake.tab!.url = urls[to];
    for (const event of ["onBeforeNavigate", "onCommitted", "onCompleted"] as const) {
      fake.webNavigation[event].emit({ tabId: 4, frameId: 0 });
    }
  };
  const browserStep = (by: number) => () => {
    for (let i = at + by; i >= 0 && i < urls.length; i += by) {
      if (!skippable.has(i)) return Promise.resolve(go(i));
    }
    return Promise.reject(NO_ENTRY);
  };
  return {
    fake,
    chrome: {
      ...fake,
      tabs: { ...fake.tabs, goBack: browserStep(-1), goForward: browserStep(1) },
      scripting: {
        executeScript: (options: { args: string[] }) => {
          const to = at + (options.args[0] === "back" ? -1 : 1);
          if (to < 0 || to >= urls.length) return Promise.resolve([{ result: "maybe" }]);
          go(to);
          return Promise.resolve([{ result: "going" }]);
        },
      },
    },
  };
}

Deno.test("isNoHistoryError recognizes Chromium's message", () => {
  assertEquals(isNoHistoryError(NO_ENTRY), true);
  assertEquals(isNoHistoryError(new Error("No tab with id: 3.")), false);
});

Deno.test("1 → 2 → 3, back, back: forward lands on 2, then 3, then NO_HISTORY", async () => {
  const urls = ["http://app/1", "http://app/2", "http://app/3"];
  const tab = tabWithHistory(urls);
  await withChrome(tab.chrome, async () => {
    const walk = [
      [tabsBack, "back", urls[1]],
      [tabsBack, "back", urls[0]],
      [tabsForward, "forward", urls[1]],
      [tabsForward, "forward", urls[2]],
    ] as const;
    for (const [method, direction, url] of walk) {
      const value = await method(parsedInput(`tabs.${direction}`, { tabId: 4 }), context());
      assertEquals([direction, value.url, value.loaded], [direction, url, true]);
    }
    const failure = await failureOf(
      tabsForward(parsedInput("tabs.forward", { tabId: 4 }), context()),
    );
    assertEquals(failure.payload.code, "NO_HISTORY");
    assertEquals(tab.fake.tab!.url, urls[2]);
    assertEquals(listenerCount(tab.fake), 0);
  });
});

Deno.test("no entry in the page's history is NO_HISTORY (validation)", async () => {
  const { chrome, steps, fake } = historyChrome(undefined, "none");
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
    assertEquals(steps, ["back", "forward"], "Chromium's step was not taken");
    assertEquals(listenerCount(fake), 0);
  });
});

Deno.test("where no script runs, Chromium steps; its no-entry answer is NO_HISTORY", async () => {
  const scriptless = new Error("Cannot access a chrome:// URL");
  const stepped = historyChrome(undefined, scriptless);
  await withChrome(stepped.chrome, async () => {
    const input = parsedInput("tabs.forward", { tabId: 4, waitForLoad: false });
    assertEquals((await tabsForward(input, context())).tabId, 4);
    assertEquals(stepped.steps, ["forward", "browser forward"]);
  });
  const none = historyChrome(NO_ENTRY, scriptless);
  await withChrome(none.chrome, async () => {
    const failure = await failureOf(tabsBack(parsedInput("tabs.back", { tabId: 4 }), context()));
    assertEquals(failure.payload.code, "NO_HISTORY");
    assertEquals(none.steps, ["back", "browser back"]);
    assertEquals(listenerCount(none.fake), 0);
  });
});

Deno.test("the page's step is the step: Chromium's is not taken", async () => {
  const sure = historyChrome(undefined, "going");
  await withChrome(sure.chrome, async () => {
    assertEquals(
      await tabsBack(parsedInput("tabs.back", { tabId: 4, waitForLoad: false }), context()),
      { tabId: 4, url: "http://app/a", title: "A", loaded: false },
    );
    assertEquals(sure.steps, ["back"]);
  });
  // Another origin's entry: the step counts once a navigation starts.
  const moved = historyChrome(undefined, "maybe", true);
  await withChrome(moved.chrome, async () => {
    const value = await tabsForward(
      parsedInput("tabs.forward", { tabId: 4, waitForLoad: false }),
      context(),
    );
    assertEquals(value.tabId, 4);
    assertEquals(moved.steps, ["forward"]);
    assertEquals(listenerCount(moved.fake), 0);
  });
});

Deno.test("another browser error is EXTENSION_ERROR; an unknown tab is TAB_NOT_FOUND", async () => {
  const { chrome } = historyChrome(new Error("Something else broke"), new Error("no script"));
  await withChrome(chrome, async () => {
    const failure = await failureOf(
      tabsBack(parsedInput("tabs.back", { tabId: 4, waitForLoad: false }), context()),
    );
    assertEquals(failure.payload.code, "EXTENSION_ERROR");
    assertMatch(failure.message, /Something else broke/);
    const missing = await failureOf(
      tabsForward(parsedInput("tabs.forward", { tabId: 5 }), context()),
    );
    assertEquals(missing.payload.code, "TAB_NOT_FOUND");
  });
});
