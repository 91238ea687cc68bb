/**
 * Site permissions as an agent and a person meet them (issue 31's acceptance): real hub, real
 * Chromium with the installed extension, the official MCP SDK client over `/mcp`, and a site that
 * records every request it gets (tests/fixtures/recording_site.ts, reached as `localhost:<port>`,
 * a site apart from the test web app on 127.0.0.1).
 *
 * - A site set to `off` (the rule `localhost`): reading, clicks, typing, keys, scripts, a reload
 *   and navigation to it are refused with SITE_NOT_ALLOWED, whose text names the site and the
 *   command that allows it (for the rule that decided); the audit names the origin; the page stays untouched and its server sees none of those actions.
 *   In an allowed page, a frame of that site is a single blocked line in the snapshot and the
 *   page text, and a click inside it is refused. A click on an allowed page that navigates there
 *   loads it (the page's own navigation, which site rules do not stop); the next call in that tab
 *   is refused. Running the command the error names lets the next call through.
 * - A new install (no site settings): the first call on a site waits for the person, who sees
 *   "Allow agents to use <site>?" in the real side panel; Deny refuses the call, Allow once lets
 *   that call alone through, Always allow this site writes an `auto` rule for the page's origin and later calls do not
 *   ask. A screenshot goes to tests/artifacts/site_permissions/.
 * - skip-permissions grants `ask` sites without asking, and `off` stays off.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { callTool, type E2E, type E2EOptions, e2eTest } from "../helpers/e2e_fixture.ts";
import { api, eventually, readConfig } from "../helpers/hub_api.ts";
import { ROOT, runHub } from "../helpers/hub_process.ts";
import type { Client } from "../helpers/mcp_client.ts";
import { openPanel } from "../helpers/panel_page.ts";
import { failed, tabIdOf } from "../helpers/tool_replies.ts";
import { type RecordingSite, startRecordingSite } from "../fixtures/recording_site.ts";

const ARTIFACTS = join(ROOT, "tests", "artifacts", "site_permissions");
const TOOLS_AUTO = { "test-app": { permission: "auto" }, browser: { permission: "auto" } };

// deno-lint-ignore no-explicit-any
type Json = any;
interface ToolResult {
  isError?: boolean;
  content: { type: string; text: string }[];
  structuredContent?: Json;
}

/** The recording site of the running test (started as the e2e fixture's service). */
let site: RecordingSite;
const siteService: E2EOptions["service"] = async () => {
  site = await startRecordingSite();
  return { env: {}, stop: () => site.close() };
};

async function call(mcp: Client, name: string, args: Record<string, unknown>) {
  return await mcp.callTool({ name, arguments: args }) as ToolResult;
}

/**
 * Asserts an MCP result is SITE_NOT_ALLOWED for `key` (the recording site's), decided by the
 * `localhost` rule, which the fix command names; answers its text.
 */
function refused(result: ToolResult, what: string, key = site.key): string {
  const pattern = "localhost";
  const shown = JSON.stringify(result).slice(0, 1500);
  assertEquals(result.isError, true, `${what}: ${shown}`);
  const error = result.structuredContent?.error;
  assertEquals([error?.code, error?.category], ["SITE_NOT_ALLOWED", "permission"], shown);
  const text = result.content[0].text;
  assertMatch(text, /^SITE_NOT_ALLOWED: /, shown);
  assert(
    text.includes(`Browser tools are off for ${key} (rule "${pattern}"), so hub did`),
    `${what}: ${text}`,
  );
  assert(
    text.includes(
      `A person can allow it: hub config set site-permission.${pattern} ask (or auto)`,
    ),
    `${what}: ${text}`,
  );
  assertEquals(error.details?.site, key, shown);
  return text;
}

/** The site page opened by the person (Playwright), and its tab id. */
async function openSitePage(e2e: E2E) {
  const page = await e2e.browser.context.newPage();
  await page.goto(`${site.origin}/site/page`);
  return { page, tabId: await tabIdOf(e2e, page) };
}

/** The newest audit entries of `tool`, newest first. */
async function audits(e2e: E2E, tool: string): Promise<Json[]> {
  const reply = await api(e2e.hub, "GET", `/audit?tool=${tool}&limit=20`);
  assertEquals(reply.status, 200, JSON.stringify(reply.body));
  return reply.body;
}

e2eTest(import.meta.url, "an off site: every action refused, its server sees nothing", {
  config: {
    permissions: TOOLS_AUTO,
    sitePermissions: { localhost: "off" },
    defaultSitePermission: "auto",
  },
  service: siteService,
}, async (t, { e2e, mcp }) => {
  const { page, tabId } = await openSitePage(e2e);
  const loads = () => site.requests().filter((path) => path === "/site/page").length;
  assertEquals(loads(), 1);

  await t.step("reading, clicks, typing, keys, scripts and a reload are refused", async () => {
    const calls: [string, Record<string, unknown>][] = [
      ["browser_click_element", { tabId, selector: "#press" }],
      ["browser_click_at", { tabId, x: 30, y: 30 }],
      ["browser_type_text", { tabId, selector: "#field", text: "hello" }],
      ["browser_press_key", { tabId, selector: "#field", key: "a" }],
      ["browser_select_option", { tabId, selector: "#field", index: 0 }],
      ["browser_get_page_text", { tabId }],
      ["browser_snapshot", { tabId }],
      ["browser_query_elements", { tabId, selector: "button" }],
      ["browser_get_page_html", { tabId }],
      ["browser_execute_script", { tabId, code: "fetch('/hit/script')" }],
      ["browser_reload_tab", { tabId }],
    ];
    for (const [name, args] of calls) {
      const text = refused(await call(mcp, name, args), name);
      assert(text.includes("so hub did nothing in this tab."), `${name}: ${text}`);
    }
    assertEquals(site.hits(), [], "the site's server saw no action");
    assertEquals(loads(), 1, "the page was not reloaded");
    assertEquals(await page.textContent("#state"), "untouched");
    assertEquals(await page.inputValue("#field"), "");
  });

  await t.step("navigating a tab to it or opening it is refused before it loads", async () => {
    const app = await e2e.open("/?tab=site-nav");
    const appTab = await tabIdOf(e2e, app);
    const before = app.url();
    const target = `${site.origin}/hit/navigate`;
    const navigated = refused(
      await call(mcp, "browser_navigate_tab", { tabId: appTab, url: target }),
      "navigate",
    );
    assert(navigated.includes("so hub did not open it."), navigated);
    const opened = refused(
      await call(mcp, "browser_open_tab", { url: `${site.origin}/hit/open` }),
      "open",
    );
    assert(opened.includes("so hub did not open it."), opened);
    assertEquals(app.url(), before, "the tab stayed where it was");
    const pages = e2e.browser.context.pages().map((p) => p.url());
    assert(!pages.some((url) => url.startsWith(`${site.origin}/hit/`)), pages.join());
    assertEquals(site.hits(), [], "the site's server saw no navigation");
    await app.close();
  });

  await t.step(
    "a click that navigates there loads it; the next call there is refused",
    async () => {
      // What site rules do not stop (docs/security.md): the page's own navigation after an allowed
      // action. An allowed page (the test app) gets a link to the off site, and the agent clicks it.
      const app = await e2e.open("/?tab=site-link");
      const appTab = await tabIdOf(e2e, app);
      await app.evaluate(`document.body.insertAdjacentHTML("beforeend",
      '<a id="off-link" href="${site.origin}/hit/link">Off site</a>')`);
      const clicked = await call(mcp, "browser_click_element", {
        tabId: appTab,
        selector: "#off-link",
      });
      assert(!clicked.isError, JSON.stringify(clicked).slice(0, 800));
      await eventually(
        () => Promise.resolve(site.hits().includes("/hit/link")),
        () => `the link never loaded: ${site.requests()}`,
      );
      const text = refused(await call(mcp, "browser_get_page_text", { tabId: appTab }), "after");
      assert(text.includes("so hub did nothing in this tab."), text);
      assertEquals(site.hits(), ["/hit/link"], "only the page's own navigation reached the site");
      await app.close();
    },
  );

  await t.step(
    "a frame of the off site inside an allowed page is neither read nor used",
    async () => {
      // `/frames` on 127.0.0.1 (default auto) holds the "Payment" frame from localhost (off).
      const frames = await e2e.open("/frames?tab=off-frame");
      const framesTab = await tabIdOf(e2e, frames);
      const pay = frames.frameLocator("#pay-frame");
      await pay.locator("#pay").waitFor();
      const frameSite = `localhost:${new URL(e2e.app.origin).port}`;
      const shot = await call(mcp, "browser_snapshot", { tabId: framesTab });
      const outline: string = shot.structuredContent?.text ?? "";
      assertMatch(outline, /^ *- iframe "Payment" \[blocked: site not allowed\]$/m, outline);
      assert(!outline.includes('button "Pay"'), `nothing of the frame is read:\n${outline}`);
      const read = await call(mcp, "browser_get_page_text", { tabId: framesTab });
      const text: string = read.structuredContent?.text ?? "";
      assert(text.includes("/frame-pay [blocked: site not allowed]"), text);
      assert(!text.includes("Unpaid"), text);
      const inFrame = { tabId: framesTab, frame: "#pay-frame", selector: "#pay" };
      refused(await call(mcp, "browser_click_element", inFrame), "click in frame", frameSite);
      assertEquals(await pay.locator("#status").textContent(), "Unpaid");
      const top = { tabId: framesTab, selector: "#name", text: "still works" };
      assert(!(await call(mcp, "browser_type_text", top)).isError, "the top page is allowed");
      await frames.close();
    },
  );

  await t.step("REST answers 403; the audit entry names the site", async () => {
    failed(await callTool(e2e, "browser_click_element", { tabId, selector: "#press" }), {
      status: 403,
      code: "SITE_NOT_ALLOWED",
      category: "permission",
      message: /hub config set site-permission\./,
    });
    const [entry] = await audits(e2e, "browser_click_element");
    assertEquals([entry.success, entry.error?.code], [false, "SITE_NOT_ALLOWED"]);
    // The origin, as on a success (SITE_NOT_ALLOWED's details.origin).
    assertEquals(entry.site, site.origin, JSON.stringify(entry));
    assertEquals(await page.textContent("#state"), "untouched");
    assert(!site.hits().includes("/hit/click"), `${site.hits()}`);
  });

  await t.step("the command the error names lets the next call through", async () => {
    const text = refused(
      await call(mcp, "browser_click_element", { tabId, selector: "#press" }),
      "click",
    );
    const command = /hub config set (site-permission\.\S+) ask \(or auto\)/.exec(text)!;
    const set = await runHub(["config", "set", command[1], "auto"], {
      configDir: e2e.configDir,
      env: { HUB_PORT: String(e2e.hub.port) },
    });
    assertEquals(set.code, 0, `${set.stdout}\n${set.stderr}`);
    assertEquals((await readConfig(e2e.configDir)).sitePermissions.localhost, "auto");
    let last: ToolResult | undefined;
    await eventually(
      async () =>
        !(last = await call(mcp, "browser_click_element", { tabId, selector: "#press" }))
          .isError,
      () => `the click stayed refused: ${JSON.stringify(last).slice(0, 800)}`,
    );
    await eventually(
      () => Promise.resolve(site.hits().includes("/hit/click")),
      () => `the site never saw the click: ${site.requests()}`,
    );
    assertEquals(await page.textContent("#state"), "pressed");
    const [entry] = await audits(e2e, "browser_click_element");
    assertEquals([entry.success, entry.site], [true, site.origin], JSON.stringify(entry));
  });
  await page.close();
});

e2eTest(import.meta.url, "a new install asks the person before an agent touches a site", {
  // No site settings at all, as a new install has them; the browser tools themselves allowed.
  config: { permissions: TOOLS_AUTO, defaultSitePermission: undefined },
  service: siteService,
}, async (t, { e2e, mcp }) => {
  const config = await readConfig(e2e.configDir);
  assertEquals(config.defaultSitePermission ?? "ask", "ask", JSON.stringify(config));
  assertEquals(Object.keys(config.sitePermissions ?? {}), []);
  const { page, tabId } = await openSitePage(e2e);
  const panel = await openPanel(e2e);
  const cards = panel.getByTestId("confirmation");
  /** Starts `tool`, waits for the site's card, answers it with `button`; the call's result. */
  const answered = async (tool: string, args: Record<string, unknown>, button: string) => {
    const [hits, state] = [site.hits(), await page.textContent("#state")];
    const result = call(mcp, tool, { tabId, ...args });
    result.catch(() => {}); // awaited below; a failed assertion first must not leave it unhandled
    await eventually(async () => (await cards.count()) === 1, () => `no card for ${tool}`);
    const shown = (await cards.first().textContent()) ?? "";
    assert(shown.includes(`Allow agents to use ${site.key}?`), shown);
    assertEquals(site.hits(), hits, "nothing reached the site while the person decides");
    assertEquals(await page.textContent("#state"), state);
    if (button === "deny") {
      await Deno.mkdir(ARTIFACTS, { recursive: true });
      await panel.screenshot({ path: join(ARTIFACTS, "new_install_asks.png") });
    }
    await cards.first().getByTestId(button).click();
    const done = await result;
    await eventually(async () => (await cards.count()) === 0, () => "the card stayed");
    return done;
  };

  await t.step("Deny: the call is refused and nothing happened in the tab", async () => {
    const denied = await answered("browser_click_element", { selector: "#press" }, "deny");
    assertEquals(denied.isError, true, JSON.stringify(denied));
    assertEquals(denied.structuredContent?.error?.code, "PERMISSION_DENIED");
    assertMatch(denied.content[0].text, new RegExp(`did not allow agents to use ${site.key}\\.`));
    assertEquals(site.hits(), []);
    assertEquals(await page.textContent("#state"), "untouched");
  });

  await t.step("Allow once: that call runs, the next one asks again", async () => {
    const allowed = await answered("browser_click_element", { selector: "#press" }, "allow");
    assert(!allowed.isError, JSON.stringify(allowed));
    await eventually(
      () => Promise.resolve(site.hits().includes("/hit/click")),
      () => `the site never saw the click: ${site.requests()}`,
    );
    const again = await answered("browser_get_page_text", {}, "allow");
    assert(!again.isError, JSON.stringify(again).slice(0, 800));
    assert(again.structuredContent.text.includes("pressed"), again.structuredContent.text);
    assertEquals((await readConfig(e2e.configDir)).sitePermissions?.[site.key], undefined);
  });

  await t.step("Always allow this site: the rule is written, later calls do not ask", async () => {
    const always = await answered("browser_get_page_text", {}, "always-allow");
    assert(!always.isError, JSON.stringify(always).slice(0, 800));
    // The origin the person was shown: the most specific rule, so it wins and covers only that.
    assertEquals((await readConfig(e2e.configDir)).sitePermissions?.[site.origin], "auto");
    // Nobody answers now: the call returns only because it was not asked about.
    const later = await call(mcp, "browser_get_page_text", { tabId });
    assert(!later.isError, JSON.stringify(later).slice(0, 800));
    assertEquals(await cards.count(), 0);
  });
  await panel.close();
  await page.close();
});

e2eTest(import.meta.url, "skip-permissions grants ask sites without asking; off stays off", {
  config: {
    permissions: TOOLS_AUTO,
    skipPermissions: true,
    sitePermissions: { localhost: "off" },
    defaultSitePermission: "ask",
  },
  service: siteService,
}, async (_t, { e2e, mcp }) => {
  const app = await e2e.open("/?tab=skip");
  const appTab = await tabIdOf(e2e, app);
  // Nobody answers a confirmation here: the call returns only because none was asked.
  const read = await call(mcp, "browser_get_page_text", { tabId: appTab });
  assert(!read.isError, JSON.stringify(read).slice(0, 800));
  assert(read.structuredContent.text.includes("Test app"), read.structuredContent.text);
  const { page, tabId } = await openSitePage(e2e);
  refused(await call(mcp, "browser_click_element", { tabId, selector: "#press" }), "click");
  assertEquals(site.hits(), []);
  assertEquals(await page.textContent("#state"), "untouched");
  await page.close();
  await app.close();
});
