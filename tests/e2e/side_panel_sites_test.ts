/**
 * Site permissions in the real side panel: real hub, real Chromium with the installed extension,
 * the panel page driven like a person would, calls made with the official MCP SDK client. The
 * site is the test web app (`127.0.0.1:<port>`); sites without a rule ask (a new install's
 * default).
 *
 * - With the panel closed, a site question shows a notification and the badge; the panel shows
 *   "Allow agents to use <site>?" with Allow once, Always allow this site and Deny, and Activity
 *   shows the call waiting for that site. Allow once runs that call only; Deny refuses the next
 *   one (PERMISSION_DENIED); an `ask` tool gets its own question first, then the site's (same
 *   call); Always allow runs it, writes the page's origin as the rule into config.json, and the
 *   next call does not ask.
 * - The Sites section lists the rules with their last use; changing a rule, adding one (a bad
 *   pattern shows the hub's error), removing one, the default and agentTabsOnly reach config.json.
 *
 * Screenshots go to tests/artifacts/side_panel_sites/.
 */
import { join } from "node:path";
import type { Locator, Page } from "playwright-core";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { type E2E, e2eTest } from "../helpers/e2e_fixture.ts";
import { eventually, readConfig } from "../helpers/hub_api.ts";
import { ROOT } from "../helpers/hub_process.ts";
import type { Client } from "../helpers/mcp_client.ts";
import { alertsBecome, openPanel } from "../helpers/panel_page.ts";
import { tabIdOf } from "../helpers/tool_replies.ts";

const ARTIFACTS = join(ROOT, "tests", "artifacts", "side_panel_sites");

// deno-lint-ignore no-explicit-any
type Json = any;
interface ToolResult {
  isError?: boolean;
  content: { type: string; text: string }[];
  structuredContent?: Json;
}

async function shot(page: Page, name: string, target?: Locator) {
  await Deno.mkdir(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, `${name}.png`);
  if (target) await target.screenshot({ path });
  else await page.screenshot({ path });
}

/** Polls config.json until `check` holds. */
async function configWhere(e2e: E2E, check: (config: Json) => boolean, what: string) {
  let last: Json;
  await eventually(
    async () => check(last = await readConfig(e2e.configDir)),
    () => `config.json never had ${what}: ${JSON.stringify(last)}`,
  );
}

async function textMatches(locator: Locator, pattern: RegExp) {
  let last: string | null = null;
  await eventually(
    async () => pattern.test(last = (await locator.textContent()) ?? ""),
    () => `text "${last}" never matched ${pattern}`,
  );
}

async function countIs(locator: Locator, count: number, what: string) {
  await eventually(
    async () => (await locator.count()) === count,
    async () => `${what}: ${await locator.count()}, expected ${count}`,
  );
}

function readPage(mcp: Client, tabId: number): Promise<ToolResult> {
  return mcp.callTool({ name: "browser_get_page_text", arguments: { tabId } }) as Promise<
    ToolResult
  >;
}

e2eTest(import.meta.url, "site questions and the Sites section in the real side panel", {
  config: {
    permissions: { "test-app": { permission: "auto" }, browser: { permission: "auto" } },
    defaultSitePermission: "ask",
    sitePermissions: { "example.com": "off" },
  },
}, async (t, { e2e, mcp }) => {
  const site = new URL(e2e.app.url).host; // 127.0.0.1:<port>
  const origin = new URL(e2e.app.url).origin; // what "Always allow this site" writes
  const app = await e2e.open("/?tab=sites");
  const tabId = await tabIdOf(e2e, app);
  const worker = await e2e.browser.serviceWorker();
  let panel: Page | undefined;
  const cards = () => panel!.getByTestId("confirmation");
  const activity = () => panel!.getByTestId("activity-entry").first();

  /** Starts a page read and waits for its site question in the panel; `result` is the call's. */
  async function asked(): Promise<{ result: Promise<ToolResult> }> {
    const result = readPage(mcp, tabId);
    await countIs(cards(), 1, "site questions shown");
    return { result };
  }

  await t.step(
    "panel closed: a notification and the badge; the panel asks about the site",
    async () => {
      const result = readPage(mcp, tabId);
      await alertsBecome(worker, "1", 1);
      panel = await openPanel(e2e);
      await alertsBecome(worker, "1", 0); // the panel shows it; the notification goes
      await countIs(cards(), 1, "site questions shown");
      const card = cards().first();
      assertEquals(await card.getAttribute("data-site"), site);
      await textMatches(card.locator("h3"), new RegExp(`^Allow agents to use ${site}\\?$`));
      const labels = await card.locator(".actions button").allTextContents();
      assertEquals(labels, ["Allow once", "Always allow this site", "Deny"]);
      assertEquals(await card.getByTestId("tool-name").textContent(), "browser_get_page_text");
      await card.getByTestId("site-call").locator("summary").click();
      await textMatches(card.getByTestId("parameters"), new RegExp(`tabId${tabId}`));
      await textMatches(activity(), new RegExp(`Waiting for you: allow ${site}\\?`));
      assertEquals(await activity().getAttribute("data-site"), site);
      await shot(panel, "site_question");

      await card.getByTestId("allow").click();
      const read = await result;
      assert(!read.isError, JSON.stringify(read).slice(0, 800));
      await countIs(cards(), 0, "questions left");
      await alertsBecome(worker, "", 0);
      await eventually(
        async () => (await activity().getAttribute("data-state")) === "succeeded",
        async () => `activity: ${await activity().textContent()}`,
      );
    },
  );

  await t.step(
    "Allow once covered one call: the next asks again, and Deny refuses it",
    async () => {
      const { result } = await asked();
      await cards().first().getByTestId("deny").click();
      const denied = await result;
      assertEquals(denied.isError, true, JSON.stringify(denied));
      assertEquals(denied.structuredContent?.error?.code, "PERMISSION_DENIED");
      assertMatch(denied.content[0].text, new RegExp(`did not allow agents to use ${site}\\.`));
      await eventually(
        async () => (await activity().getAttribute("data-state")) === "failed",
        async () => `activity: ${await activity().textContent()}`,
      );
      assertEquals(await activity().getAttribute("data-site"), null);
    },
  );

  await t.step("an ask tool on an ask site: the tool's question, then the site's", async () => {
    const browserTools = panel!.getByTestId("plugin-browser").getByTestId("plugin-permission");
    await browserTools.selectOption("ask");
    await configWhere(e2e, (c) => c.permissions.browser.permission === "ask", "browser: ask");
    const { result } = await asked();
    assertEquals(await cards().first().getAttribute("data-site"), null, "the tool's question");
    await cards().first().getByTestId("allow").click();
    await eventually(
      async () => (await cards().first().getAttribute("data-site")) === site,
      () => "the site's question never followed the tool's",
    );
    await cards().first().getByTestId("allow").click();
    const read = await result;
    assert(!read.isError, JSON.stringify(read).slice(0, 800));
    await countIs(cards(), 0, "questions left");
    await browserTools.selectOption("auto");
    await configWhere(e2e, (c) => c.permissions.browser.permission === "auto", "browser: auto");
  });

  await t.step(
    "Always allow: the call runs, the rule is saved, the next call does not ask",
    async () => {
      const { result } = await asked();
      await cards().first().getByTestId("always-allow").click();
      const read = await result;
      assert(!read.isError, JSON.stringify(read).slice(0, 800));
      await configWhere(e2e, (c) => c.sitePermissions?.[origin] === "auto", `${origin}: auto`);
      const again = await readPage(mcp, tabId); // returns with nobody answering
      assert(!again.isError, JSON.stringify(again).slice(0, 800));
      assertEquals(await cards().count(), 0);
    },
  );

  await sitesSection(t, e2e, panel!, origin, () => readPage(mcp, tabId));
  await panel!.close();
  await app.close();
});

/**
 * The Sites section's steps: the rules as listed, and each change reaching config.json. `site` is
 * the rule "Always allow this site" wrote for the test web app (its origin).
 */
async function sitesSection(
  t: Deno.TestContext,
  e2e: E2E,
  panel: Page,
  site: string,
  read: () => Promise<ToolResult>,
) {
  const section = panel.getByTestId("sites");
  const rule = (pattern: string) =>
    section.locator(`[data-testid="site-rule"][data-pattern="${pattern}"]`);

  await t.step("the Sites section lists each rule with its last use", async () => {
    await section.scrollIntoViewIfNeeded();
    await countIs(section.getByTestId("site-rule"), 2, "rules listed");
    assertEquals(await section.getByTestId("site-default").inputValue(), "ask");
    assertEquals(await rule(site).getByTestId("site-permission").inputValue(), "auto");
    await textMatches(rule(site).getByTestId("site-last-use"), /^last used (just now|\d+ s ago)$/);
    assertEquals(await rule("example.com").getByTestId("site-permission").inputValue(), "off");
    assertEquals(
      await rule("example.com").getByTestId("site-last-use").textContent(),
      "never used",
    );
    await shot(panel, "sites_section", section);
  });

  await t.step("a rule set to Off in the panel reaches config.json and refuses calls", async () => {
    await rule(site).getByTestId("site-permission").selectOption("off");
    await configWhere(e2e, (c) => c.sitePermissions?.[site] === "off", `${site}: off`);
    let last: ToolResult | undefined;
    await eventually(
      async () => (last = await read()).structuredContent?.error?.code === "SITE_NOT_ALLOWED",
      () => `the read was not refused: ${JSON.stringify(last).slice(0, 600)}`,
    );
    assert(last!.content[0].text.includes(`rule "${site}"`), last!.content[0].text);
  });

  await t.step("adding a rule; a bad pattern shows the hub's error; removing one", async () => {
    const error = section.getByTestId("site-add-error");
    await section.getByTestId("site-pattern").fill("exa mple.com");
    await section.getByTestId("site-add").click();
    await textMatches(error, /^Could not add the rule: /);
    await section.getByTestId("site-pattern").fill("*.Example.ORG");
    await section.getByTestId("site-new-permission").selectOption("auto");
    await section.getByTestId("site-add").click();
    await configWhere(e2e, (c) => c.sitePermissions?.["*.example.org"] === "auto", "the new rule");
    await countIs(rule("*.example.org"), 1, "the new rule listed");
    assert(await error.isHidden(), "the error went");
    assertEquals(await section.getByTestId("site-pattern").inputValue(), "");
    await rule("example.com").getByTestId("site-remove").click();
    await configWhere(e2e, (c) => !("example.com" in (c.sitePermissions ?? {})), "no example.com");
    await countIs(rule("example.com"), 0, "the removed rule listed");
  });

  await t.step("the default for other sites and agentTabsOnly reach config.json", async () => {
    await section.getByTestId("site-default").selectOption("off");
    await configWhere(e2e, (c) => c.defaultSitePermission === "off", "default off");
    const toggle = section.getByTestId("agent-tabs-only");
    assertEquals(await toggle.getAttribute("aria-checked"), "false");
    await toggle.click();
    await configWhere(e2e, (c) => c.agentTabsOnly === true, "agentTabsOnly on");
    await eventually(
      async () => (await toggle.getAttribute("aria-checked")) === "true",
      () => "the switch did not stay on",
    );
    await toggle.click();
    await configWhere(e2e, (c) => c.agentTabsOnly === false, "agentTabsOnly off");
  });
}
