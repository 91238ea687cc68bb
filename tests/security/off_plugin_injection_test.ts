/**
 * Attack: a plugin that is `off` but matches every page (`<all_urls>`) hopes to run anyway (its
 * adapter would read the page, here it only sets a marker on <html>). In real Chromium with the real
 * hub and extension: while the plugin is off its adapter is never injected (the marker stays absent,
 * even in tabs where another plugin was injected); turning it on injects it (marker set, its tab
 * ready, its tool answers); turning it off again takes it out of the open tab without a reload (the
 * tab stops being ready: its readiness and calls are no longer answered), and a new tab never gets
 * it. The side panel's "Before you allow it" box says the plugin runs on every website.
 */
import { join } from "node:path";
import type { Page } from "playwright-core";
import { assert, assertEquals } from "../helpers/assert.ts";
import { eventually, health } from "../helpers/hub_api.ts";
import { runHub } from "../helpers/hub_process.ts";
import { callTool, e2eTest, PLUGIN, readyTabId } from "../helpers/e2e_fixture.ts";
import type { E2E } from "../helpers/e2e_fixture.ts";
import { buildTestPluginPackage } from "../helpers/plugin_packages.ts";
import { openPanel } from "../helpers/panel_page.ts";
import type { PluginDetail } from "../../protocol/health.ts";

const SPY = "spy";
const MARKER = "data-spy-adapter";

/** Builds the spy plugin in `spyParent`: the test plugin on `<all_urls>`, setting a marker. */
async function buildSpy(spyParent: string): Promise<void> {
  await buildTestPluginPackage(spyParent, "hub-plugin-spy", "1.0.0", async (pkg, dir) => {
    pkg.hub.urlPatterns = ["<all_urls>"];
    const source = join(dir, "src", "index.ts");
    const code = await Deno.readTextFile(source);
    // A top-level statement: runs the moment the adapter file is injected into a page (the build
    // also runs the file once outside a browser, where there is no document).
    await Deno.writeTextFile(
      source,
      `${code}\nif (typeof document !== "undefined") {\n  ` +
        `document.documentElement.setAttribute(${JSON.stringify(MARKER)}, "ran");\n}\n`,
    );
  });
  await Deno.remove(join(spyParent, "build-config"), { recursive: true });
}

const marker = (page: Page) =>
  page.evaluate(`document.documentElement.getAttribute(${JSON.stringify(MARKER)})`);

/**
 * The marker stays absent while the page is watched for a few seconds: long enough for a probe of
 * the tab (which injects) to have run many times over, with no claim on how fast anything is.
 */
async function markerStaysAbsent(page: Page, what: string): Promise<void> {
  const until = Date.now() + 3_000;
  while (Date.now() < until) {
    assertEquals(await marker(page), null, what);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function spyDetail(e2e: E2E): Promise<PluginDetail> {
  const detail = (await health(e2e.hub)).pluginDetails.find((p) => p.name === SPY);
  if (!detail) throw new Error(`plugin ${SPY} is not loaded: ${e2e.hub.output()}`);
  return detail;
}

/** `hub config set plugin-permission.spy <permission>`, telling the running hub. */
async function setSpy(e2e: E2E, permission: "off" | "auto"): Promise<void> {
  const r = await runHub(["config", "set", `plugin-permission.${SPY}`, permission], {
    configDir: e2e.configDir,
    env: { HUB_PORT: String(e2e.hub.port) },
  });
  assertEquals(r.code, 0, `${r.stdout}\n${r.stderr}`);
}

/**
 * The hub's config; `localPluginDirs` (the folder the hub finds the spy plugin in) is set by the
 * service, which makes that folder only when the test runs (a skipped test leaves nothing behind).
 */
const config: Record<string, unknown> = {
  permissions: { [PLUGIN]: { permission: "auto" }, [SPY]: { permission: "off" } },
};

e2eTest(
  import.meta.url,
  "an off plugin on <all_urls> is never injected; on injects it, off takes it out of open tabs",
  {
    config,
    service: async () => {
      const spyParent = await Deno.makeTempDir({ prefix: "hub-spy-plugin-" });
      const stop = () => Deno.remove(spyParent, { recursive: true });
      try {
        await buildSpy(spyParent);
      } catch (error) {
        await stop();
        throw error;
      }
      config.localPluginDirs = [spyParent];
      return { env: {}, stop };
    },
  },
  async (t, { e2e }) => {
    let page!: Page;
    await t.step("off: the adapter is not injected, though another plugin's is", async () => {
      page = await e2e.open("/");
      // test-app is injected and ready in this very tab: the extension did run its injection.
      await readyTabId(e2e, page);
      const spy = await spyDetail(e2e);
      assert(spy.tabs.some((tab) => tab.url === page.url() && !tab.ready), JSON.stringify(spy));
      await markerStaysAbsent(page, "the off plugin's adapter never ran");
    });

    await t.step(
      "the side panel's Before you allow it box says it runs on every site",
      async () => {
        const panel = await openPanel(e2e);
        const scope = panel.getByTestId(`plugin-${SPY}`).getByTestId("plugin-scope");
        const broad = scope.getByTestId("scope-broad");
        await broad.waitFor({ state: "visible", timeout: 20_000 });
        const text = (await broad.textContent()) ?? "";
        assert(text.includes("Runs on every website you visit (<all_urls>)."), text);
        const off = (await scope.getByTestId("scope-off").textContent()) ?? "";
        assert(off.includes("its code is not put into any tab"), off);
        await panel.close();
      },
    );

    await t.step("on: the adapter is injected, ready, and answers calls", async () => {
      await setSpy(e2e, "auto");
      await eventually(async () => (await marker(page)) === "ran", () => "spy never injected");
      await eventually(
        async () => (await spyDetail(e2e)).tabs.some((tab) => tab.ready),
        () => "spy never became ready",
      );
      const reply = await callTool(e2e, `${SPY}__echo`, { text: "hello" });
      assertEquals(reply.status, 200, JSON.stringify(reply.body));
    });

    await t.step("off again: taken out of the open tab; a new tab never gets it", async () => {
      await setSpy(e2e, "off");
      await eventually(
        async () => (await spyDetail(e2e)).tabs.every((tab) => !tab.ready),
        () => "the spy adapter kept answering its readiness after it was turned off",
      );
      const refused = await callTool(e2e, `${SPY}__echo`, { text: "hello" });
      assertEquals(refused.status, 403, JSON.stringify(refused.body));
      const fresh = await e2e.open("/");
      await readyTabId(e2e, fresh);
      await markerStaysAbsent(fresh, "a new tab never gets the off plugin");
    });
  },
);
