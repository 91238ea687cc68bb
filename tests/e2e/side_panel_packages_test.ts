/**
 * Plugin packages through the side panel, end to end: a real npm registry on loopback (verdaccio)
 * with test plugin packages, the real hub installing into a temp npm prefix (HUB_NPM_ROOT), and
 * Chromium with the extension, whose panel page is driven like a person would: search, install
 * (the plugin arrives Off and shows what it may do), allow it and call its tool in a matching tab,
 * a newer version published, found by Check for updates and installed by Update (permissions reset
 * until reviewed), settings edited through the generated form (saved to config.json; a bad value
 * refused beside its field), and Remove with its confirm step. Screenshots go to
 * tests/artifacts/side_panel_packages/.
 */
import { join } from "node:path";
import type { Locator, Page } from "playwright-core";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { callTool, type E2E, type E2EService, e2eTest, PLUGIN } from "../helpers/e2e_fixture.ts";
import { eventually, health, readConfig } from "../helpers/hub_api.ts";
import { ROOT } from "../helpers/hub_process.ts";
import { openPanel } from "../helpers/panel_page.ts";
import { startRegistry, type TestRegistry } from "../helpers/registry.ts";
import {
  COMMUNITY_PACKAGE,
  OFFICIAL_PACKAGE,
  publishTestPlugin,
  TEST_TOOL,
} from "../helpers/plugin_packages.ts";
import { toolName } from "../../protocol/call_contract.ts";
import { unmarked } from "../helpers/page_content.ts";

const ARTIFACTS = join(ROOT, "tests", "artifacts", "side_panel_packages");
/** The official test package's plugin name and its tool. */
const ALPHA = "alpha";
const ALPHA_TOOL = toolName(ALPHA, TEST_TOOL);
/** npm, the registry and the hub's reload: slower than the panel's other round trips. */
const INSTALL_MS = 90_000;

// deno-lint-ignore no-explicit-any
type Json = any;

let registry: TestRegistry | undefined;
let prefix = "";

/** Deno's cache, passed on explicitly because the hub gets the registry's HOME. */
function denoDir(): string {
  const cache = Deno.env.get("XDG_CACHE_HOME") ?? join(Deno.env.get("HOME") ?? "/root", ".cache");
  return Deno.env.get("DENO_DIR") ?? join(cache, "deno");
}

/** The registry with alpha 1.0.0 (official) and beta 1.0.0 (community), and an empty prefix. */
async function registryService(): Promise<E2EService> {
  const started = await startRegistry();
  registry = started;
  prefix = await Deno.makeTempDir({ prefix: "hub-npm-prefix-" });
  const root = join(prefix, "lib", "node_modules");
  try {
    await Deno.mkdir(root, { recursive: true });
    await publishTestPlugin(started, OFFICIAL_PACKAGE, "1.0.0");
    await publishTestPlugin(started, COMMUNITY_PACKAGE, "1.0.0");
  } catch (error) {
    await started.stop();
    throw error;
  }
  return {
    env: started.env({
      NPM_CONFIG_PREFIX: prefix,
      HUB_NPM_ROOT: root,
      HUB_SKIP_PKG_DISCOVERY: "",
      DENO_DIR: denoDir(),
    }),
    async stop() {
      await started.stop();
      await Deno.remove(prefix, { recursive: true }).catch(() => {});
    },
  };
}

/**
 * Saves the whole panel, or the part `target` covers. The viewport grows to the page's height
 * first: a full-page capture would drop the scrollbar and lay the page out wider than measured.
 */
async function shot(panel: Page, name: string, target?: Locator) {
  await Deno.mkdir(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, `${name}.png`);
  const viewport = panel.viewportSize()!;
  const height = await panel.evaluate("document.documentElement.scrollHeight") as number;
  await panel.setViewportSize({ width: viewport.width, height: Math.max(height, viewport.height) });
  try {
    const clip = await target?.boundingBox();
    await panel.screenshot({ path, ...(clip ? { clip } : {}) });
  } finally {
    await panel.setViewportSize(viewport);
  }
}

async function textMatches(locator: Locator, pattern: RegExp, timeoutMs?: number) {
  let last: string | null = null;
  await eventually(
    async () => pattern.test(last = (await locator.textContent()) ?? ""),
    () => `text "${last}" never matched ${pattern}`,
    timeoutMs,
  );
}

async function configWhere(e2e: E2E, check: (config: Json) => boolean, what: string) {
  let last: Json;
  await eventually(
    async () => check(last = await readConfig(e2e.configDir)),
    () => `config.json never had ${what}: ${JSON.stringify(last)}`,
  );
  return last;
}

function errorCode(reply: { body: Json }): string | undefined {
  return reply.body?.structuredContent?.error?.code;
}

/** Runs a search from the panel's box (Enter) and waits for its summary. */
async function search(panel: Page, query: string) {
  const input = panel.getByTestId("search-input");
  await input.fill(query);
  await input.press("Enter");
  let last = "";
  await eventually(
    async () => {
      last = (await panel.getByTestId("search-summary").textContent()) ?? "";
      return /^(\d+ plugin package|No plugin|The registry has no)/.test(last);
    },
    async () =>
      `the search for "${query}" never finished: "${last}", error "${await panel.getByTestId(
        "search-error",
      ).textContent()}"`,
    INSTALL_MS,
  );
}

/** Keeps every distinct text `locator` shows until `done` settles (progress lines come and go). */
function watchTexts(locator: Locator, done: Promise<unknown>): Promise<string[]> {
  const seen = new Set<string>();
  let finished = false;
  done.finally(() => (finished = true)).catch(() => {});
  return (async () => {
    while (!finished) {
      const text = (await locator.allTextContents().catch(() => [])).join(" | ").trim();
      if (text) seen.add(text);
      await new Promise((r) => setTimeout(r, 40));
    }
    return [...seen];
  })();
}

e2eTest(
  import.meta.url,
  "side panel packages: search, install, allow, call, update, configure, remove",
  { service: registryService },
  async (t, { e2e, mcp }) => {
    const panel = await openPanel(e2e);
    const results = panel.getByTestId("result");
    const alphaRow = results.and(panel.locator(`[data-name="${OFFICIAL_PACKAGE}"]`));
    const card = panel.getByTestId(`plugin-${ALPHA}`);
    const pluginSelect = card.getByTestId("plugin-permission");

    await t.step("search lists the registry's plugin packages", async () => {
      await textMatches(panel.getByTestId("connection-status"), /Connected/);
      await textMatches(panel.getByTestId("updates-summary"), /Not checked|Checked/);
      await search(panel, "");
      assertEquals(await results.count(), 2);
      await textMatches(panel.getByTestId("search-summary"), /^2 plugin packages\.$/);
      assertEquals(await alphaRow.locator(".result-name").textContent(), OFFICIAL_PACKAGE);
      assertEquals(await alphaRow.getByTestId("result-version").textContent(), "v1.0.0");
      await textMatches(alphaRow, /Test plugin @tabhub\/hub-plugin-alpha 1\.0\.0/);
      assertEquals(await alphaRow.getByTestId("result-author").textContent(), "by hub tests");
      assert(await alphaRow.getByTestId("official").isVisible(), "the official badge shows");
      const beta = results.and(panel.locator(`[data-name="${COMMUNITY_PACKAGE}"]`));
      assert(await beta.getByTestId("official").isHidden(), "a community package has none");
      assertEquals(await alphaRow.getByTestId("install").textContent(), "Install");

      await search(panel, "beta");
      assertEquals(await results.count(), 1);
      await textMatches(panel.getByTestId("search-summary"), /1 plugin package for “beta”/);
      await search(panel, "no-such-plugin-anywhere");
      await textMatches(panel.getByTestId("search-summary"), /No plugin packages match/);
      await panel.getByTestId("search-input").fill("");
      await panel.getByTestId("search-button").click();
      await eventually(async () => (await results.count()) === 2, () => "the list came back");
      await shot(panel, "search_results", panel.getByTestId("find-plugins"));
    });

    await t.step("Install: the plugin arrives Off and shows what it may do", async () => {
      const install = alphaRow.getByTestId("install");
      await install.click();
      const finished = textMatches(
        alphaRow.getByTestId("installed"),
        /^Installed 1\.0\.0$/,
        INSTALL_MS,
      );
      const running = watchTexts(panel.locator('[data-testid="package-progress"] li'), finished);
      const rowLines = watchTexts(alphaRow.getByTestId("result-status"), finished);
      await finished;
      const seen = [...await running, ...await rowLines];
      // The hub's plugin.progress lines, besides the panel's own "Asking the hub…" and outcome.
      const progress = seen.filter((l) => l !== "Asking the hub…" && !/^Installed alpha/.test(l));
      assert(progress.length > 0, `a progress line showed while npm ran: ${JSON.stringify(seen)}`);
      await textMatches(
        alphaRow.getByTestId("result-status"),
        /Installed alpha 1\.0\.0\. It starts Off/,
      );
      assert(await install.isHidden(), "no Install button once installed");

      await textMatches(card.locator("h3"), /Test alpha/);
      assertEquals(await pluginSelect.inputValue(), "off");
      const scope = card.getByTestId("plugin-scope");
      await textMatches(scope.getByTestId("scope-patterns"), /http:\/\/127\.0\.0\.1\/\*/);
      const tool = scope.getByTestId(`scope-tool-${TEST_TOOL}`);
      await textMatches(tool, new RegExp(`${ALPHA_TOOL}`));
      assert(((await tool.locator("p").textContent()) ?? "").length > 0, "the tool's description");
      await textMatches(card.getByTestId("plugin-source"), new RegExp(OFFICIAL_PACKAGE));
      assert(
        await card.getByTestId("open-folder").isHidden(),
        "an npm plugin has no folder button",
      );
      const h = await health(e2e.hub);
      assert(h.pluginDetails.some((p) => p.name === ALPHA), "the hub lists the new plugin");
      await shot(panel, "before_allow", card);
    });

    await t.step("allow it: its tool runs in a matching tab", async () => {
      assertEquals(errorCode(await callTool(e2e, ALPHA_TOOL, { text: "x" })), "PERMISSION_OFF");
      await pluginSelect.selectOption("auto");
      await configWhere(e2e, (c) => c.permissions[ALPHA]?.permission === "auto", "alpha auto");
      await eventually(
        async () => await card.getByTestId("plugin-scope").count() === 0,
        () => "the scope stays shown once allowed",
      );
      const app = await e2e.open("/");
      await textMatches(card.getByTestId("tab-state"), /Ready/);
      const reply = await callTool(e2e, ALPHA_TOOL, { text: "from the panel's plugin" });
      assertEquals(reply.status, 200, JSON.stringify(reply.body));
      assertEquals(unmarked(reply.body).structuredContent, { text: "from the panel's plugin" });
      const viaMcp: Json = await mcp.callTool({ name: ALPHA_TOOL, arguments: { text: "mcp" } });
      assertEquals(unmarked(viaMcp).structuredContent, { text: "mcp" }, JSON.stringify(viaMcp));
      await app.close();
    });

    await t.step("a newer version: Check for updates, then Update resets permissions", async () => {
      await publishTestPlugin(registry!, OFFICIAL_PACKAGE, "1.1.0");
      await panel.getByTestId("check-updates").click();
      await textMatches(panel.getByTestId("updates-summary"), /1 update available/, INSTALL_MS);
      const update = card.getByTestId("update");
      await textMatches(update, /^Update to 1\.1\.0$/);
      await shot(panel, "update_available", card);
      await update.click();
      await textMatches(card.locator(".version"), /^v1\.1\.0$/, INSTALL_MS);
      await textMatches(card.getByTestId("action-status"), /from 1\.0\.0 to 1\.1\.0/, INSTALL_MS);
      await textMatches(card.getByTestId("needs-review"), /Version 1\.1\.0 is new/);
      await eventually(
        async () => (await pluginSelect.inputValue()) === "off",
        () => "the permission did not go back to off",
      );
      assert(await card.getByTestId("plugin-scope").isVisible(), "what it may do, again");
      assert(await update.isHidden(), "no Update once it is the latest");
      await textMatches(alphaRow.getByTestId("installed"), /^Installed 1\.1\.0$/);
      assertEquals(await alphaRow.getByTestId("result-status").textContent(), "", "no stale line");
      const config = await readConfig(e2e.configDir);
      assertEquals(config.permissions[ALPHA].permission, "off");
      assertEquals(errorCode(await callTool(e2e, ALPHA_TOOL, { text: "x" })), "PERMISSION_OFF");
      await textMatches(panel.getByTestId("updates-summary"), /up to date|Checked/);
    });

    await t.step(
      "settings: the form saves to config.json; a bad value shows beside it",
      async () => {
        const settings = card.getByTestId("settings");
        await settings.locator("summary").click();
        const url = new URL("/", e2e.app.url).href;
        await settings.getByTestId("instance-url").first().fill(url);
        await settings.getByTestId("add-instance-instances").click();
        await settings.getByTestId("instance-name").nth(1).fill("second");
        await settings.getByTestId("instance-url").nth(1).fill("http://127.0.0.1:9/second");
        await settings.getByTestId("setting-input-mode").selectOption("thorough");
        await settings.getByTestId("setting-input-verbose").check();
        await settings.getByTestId("setting-input-pageSize").fill("42");
        await settings.getByTestId("save-settings").click();
        await textMatches(settings.getByTestId("settings-status"), /^Saved /);
        const config = await configWhere(
          e2e,
          (c) => c.settings?.[ALPHA]?.pageSize === 42,
          "pageSize",
        );
        assertEquals(config.settings[ALPHA], {
          instances: { default: url, second: "http://127.0.0.1:9/second" },
          mode: "thorough",
          verbose: true,
          pageSize: 42,
        });
        await shot(panel, "settings_form", card);
        await shot(panel, "panel");
        await panel.emulateMedia({ colorScheme: "dark" });
        await shot(panel, "panel_dark");
        await panel.emulateMedia({ colorScheme: "light" });

        await settings.getByTestId("setting-input-pageSize").fill("500");
        await settings.getByTestId("instance-url").nth(1).fill("ftp://nope");
        await settings.getByTestId("save-settings").click();
        const pageSizeError = settings.getByTestId("setting-error-pageSize");
        await textMatches(pageSizeError, /must be at most 100/);
        await textMatches(settings.getByTestId("setting-error-instances"), /http\(s\) URL/);
        await textMatches(settings.getByTestId("settings-error"), /Not saved/);
        assertEquals((await readConfig(e2e.configDir)).settings[ALPHA].pageSize, 42, "unchanged");
        await shot(panel, "settings_error", card);

        // Fixed: saved, and the errors go away.
        await settings.getByTestId("setting-input-pageSize").fill("7");
        await settings.getByTestId("remove-instance").nth(1).click();
        await settings.getByTestId("save-settings").click();
        await configWhere(e2e, (c) => c.settings?.[ALPHA]?.pageSize === 7, "pageSize 7");
        assertEquals((await readConfig(e2e.configDir)).settings[ALPHA].instances, { default: url });
        assert(await pageSizeError.isHidden(), "the field's error is gone");
      },
    );

    await t.step("a local plugin has Open folder; the outcome is shown", async () => {
      const local = panel.getByTestId(`plugin-${PLUGIN}`);
      const open = local.getByTestId("open-folder");
      assert(await open.isVisible(), "the local test plugin has Open folder");
      await open.click();
      let status = "";
      let error = "";
      await eventually(async () => {
        status = (await local.getByTestId("action-status").textContent()) ?? "";
        error = (await local.getByTestId("action-error").textContent()) ?? "";
        return status.startsWith("Opened ") || error.length > 0;
      }, () => "Open folder said nothing");
      // A desktop opens the folder; a machine without one says why, naming the folder.
      if (error) assertMatch(error, new RegExp(e2e.pluginDir.replaceAll("/", "\\/")));
      else assertMatch(status, /^Opened \//);
      await shot(panel, "open_folder", local);
    });

    await t.step("Remove asks to confirm, then the plugin is gone", async () => {
      await card.getByTestId("remove").click();
      const confirm = card.getByTestId("confirm-remove");
      assert(await confirm.isVisible(), "a confirm step");
      await textMatches(card.locator(".confirm-remove"), /uninstalls the npm package @tabhub/);
      await card.getByTestId("cancel-remove").click();
      assert(await confirm.isHidden(), "Cancel takes the confirm step away");
      assertEquals(await card.count(), 1, "nothing removed");

      await card.getByTestId("remove").click();
      await confirm.click();
      await eventually(async () => (await card.count()) === 0, () => "the card stayed", INSTALL_MS);
      const h = await health(e2e.hub);
      assert(!h.pluginDetails.some((p) => p.name === ALPHA), "the hub no longer lists it");
      const gone = await Deno.stat(
        join(prefix, "lib", "node_modules", "@tabhub", "hub-plugin-alpha"),
      )
        .then(() => false, () => true);
      assert(gone, "the package folder was uninstalled");
      await textMatches(alphaRow.getByTestId("install"), /^Install$/);
    });

    await t.step("the registry down: search and Install say why, inline", async () => {
      await registry!.down();
      const input = panel.getByTestId("search-input");
      await input.fill("alpha");
      await input.press("Enter");
      const error = panel.getByTestId("search-error");
      await textMatches(error, /^Search failed: .+/, INSTALL_MS);
      assertEquals(await panel.getByTestId("search-summary").textContent(), "");
      assertEquals(await results.count(), 2, "the last results stay");
      await alphaRow.getByTestId("install").click();
      await textMatches(alphaRow.getByTestId("result-error"), /^Install failed: .+/, INSTALL_MS);
      assert(await alphaRow.getByTestId("install").isEnabled(), "Install can be tried again");
      await shot(panel, "registry_down", panel.getByTestId("find-plugins"));
    });
  },
);
