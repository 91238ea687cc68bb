/**
 * Dev mode in a real Chromium with the installed extension, the real hub (HUB_DEV=1), the test web
 * app and the test plugin: the plugin's tool is changed and rebuilt with `hub-plugin build` against
 * that hub (the author's flow: the build leaves the reload to the hub's watcher and says what it
 * did), and the next calls in the same tab, which is not reloaded, answer with the new behaviour;
 * a rebuild that does not reach the hub (another tool) is picked up too; a broken config.json edit
 * is rejected and the tab keeps being served.
 */
import { join } from "node:path";
import type { Page } from "playwright-core";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { e2eTest, PLUGIN, readyTabId } from "../helpers/e2e_fixture.ts";
import { eventually, health } from "../helpers/hub_api.ts";
import { echoBuild, timeHotReload } from "../helpers/hot_reload.ts";

/** A value on the page's window that a page reload would lose. */
function pageMarker(page: Page): Promise<string | null> {
  return page.evaluate(() => (globalThis as { __devMarker?: string }).__devMarker ?? null);
}

e2eTest(
  import.meta.url,
  "dev mode in a real browser: a rebuilt tool answers in the same tab without a page reload",
  { env: { HUB_DEV: "1" } },
  async (t, { e2e }) => {
    const page = await e2e.open("/");
    const tabId = await readyTabId(e2e, page);
    assertEquals(await echoBuild(e2e, tabId), undefined, "the fixture's echo has no build field");
    await page.evaluate(() => Object.assign(globalThis, { __devMarker: "set before the rebuild" }));
    const start = await health(e2e.hub);
    assertEquals(start.mode, "dev");

    await t.step("hub-plugin build against the dev hub: the same tab answers anew", async () => {
      const timing = await timeHotReload(e2e, tabId, "first");
      assertMatch(timing.output, /The hub \(dev mode\) reloaded "test-app" alone/);
      assertEquals(await pageMarker(page), "set before the rebuild", "the page was not reloaded");
      const after = await health(e2e.hub);
      assertEquals(after.reloadCount, start.reloadCount, "one plugin's reload, not a full one");
      assertEquals(after.fileWatcher?.lastEvent?.plugin, PLUGIN);
      assertEquals(after.fileWatcher?.lastEvent?.outcome, "reloaded");
      assertMatch(e2e.hub.output(), /Reloaded plugin "test-app" in \d+ ms/);
      console.log(
        `hot reload: ${timing.builtToAnswerMs.toFixed(0)} ms from the build's files to the new ` +
          `answer (the build waited ${timing.buildWaitMs.toFixed(0)} ms for the hub)`,
      );
    });

    await t.step("a rebuild that does not reach the hub replaces it in the same tab", async () => {
      await timeHotReload(e2e, tabId, "second", { reachHub: false });
      assertEquals(await pageMarker(page), "set before the rebuild");
      assertEquals((await e2e.plugin()).tabs.map((tab) => tab.tabId), [tabId]);
      assertEquals((await health(e2e.hub)).reloadCount, start.reloadCount);
    });

    await t.step(
      "a broken config.json edit is rejected and the tab keeps being served",
      async () => {
        await Deno.writeTextFile(join(e2e.configDir, "config.json"), '{ "permissions": ');
        await eventually(
          async () => (await health(e2e.hub)).fileWatcher?.lastEvent?.outcome === "rejected",
          () => `the broken edit was never rejected:\n${e2e.hub.output()}`,
        );
        assertMatch(e2e.hub.output(), /Dev mode: rejected the edit of .*config\.json/);
        assertEquals(await echoBuild(e2e, tabId), "second");
        assert((await health(e2e.hub)).extensionConnected);
        assertEquals(await pageMarker(page), "set before the rebuild");
      },
    );
  },
);
