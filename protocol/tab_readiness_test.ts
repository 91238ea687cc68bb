/// <reference lib="deno.ns" />
import { assertEquals } from "../tests/helpers/assert.ts";
import { noTabMessage, notReadyMessage, tabLabel } from "./tab_readiness.ts";

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
