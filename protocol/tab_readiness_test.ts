/// <reference lib="deno.ns" />
import { assertEquals } from "../tests/helpers/assert.ts";
import { noTabMessage, notReadyMessage, requestedTabRefusal, tabLabel } from "./tab_readiness.ts";

const tracker = {
  displayName: "Tracker",
  urlPatterns: ["https://tracker.test/*", "https://*.t/*"],
};
const work = { ...tracker, instance: { name: "work", url: "https://work.tracker.test" } };

Deno.test("the label names the plugin, and the instance when there is one", () => {
  assertEquals([tabLabel(tracker), tabLabel(work)], ["Tracker", "Tracker (work)"]);
});

Deno.test("no tab: says what to open, the instance's URL or the plugin's patterns", () => {
  assertEquals(
    noTabMessage(tracker),
    "No Tracker tab is open. Open https://tracker.test/* or https://*.t/* in the browser (and " +
      "sign in if needed), then try again.",
  );
  assertEquals(
    noTabMessage(work),
    "No Tracker (work) tab is open. Open https://work.tracker.test in the browser (and sign in " +
      "if needed), then try again.",
  );
});

Deno.test("not ready: names the open tab and the usual cause", () => {
  assertEquals(
    notReadyMessage(work, "https://work.tracker.test/x"),
    "A Tracker (work) tab is open (https://work.tracker.test/x) but the plugin is not ready " +
      "there, usually because you are not signed in. Sign in in that tab, then try again.",
  );
});

const INSTANCES = { work: "https://work.tracker.test", home: "https://tracker.test/home" };
const open = [
  { tabId: 4, url: "https://tracker.test/home/board" },
  { tabId: 9, url: "https://work.tracker.test/x" },
];

Deno.test("a named tab that is not the plugin's: TAB_NOT_FOUND listing the plugin's tabs", () => {
  assertEquals(requestedTabRefusal(tracker, INSTANCES, 7, open), {
    code: "TAB_NOT_FOUND",
    message: "Tab 7 is not a Tracker tab (valid tabIds: 4, 9). Call plugin_list_tabs for the " +
      "current ones, or omit tabId.",
  });
  assertEquals(
    requestedTabRefusal(work, INSTANCES, 7, [])?.message,
    "Tab 7 is not a Tracker tab (valid tabIds: none open). Call plugin_list_tabs for the current " +
      "ones, or omit tabId.",
  );
});

Deno.test("a named tab of another instance: INVALID_ARGUMENTS naming both", () => {
  assertEquals(requestedTabRefusal(work, INSTANCES, 4, open), {
    code: "INVALID_ARGUMENTS",
    message: 'Tab 4 (https://tracker.test/home/board) does not belong to instance "work" ' +
      "(https://work.tracker.test). Pick a tab of that instance (plugin_list_tabs) or omit tabId.",
  });
});

Deno.test("a named tab of the plugin (and of the call's instance) is accepted", () => {
  assertEquals(requestedTabRefusal(work, INSTANCES, 9, open), undefined);
  assertEquals(requestedTabRefusal(tracker, INSTANCES, 4, open), undefined);
  assertEquals(requestedTabRefusal(tracker, {}, 9, open), undefined);
});
