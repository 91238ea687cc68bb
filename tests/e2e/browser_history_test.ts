/**
 * browser_go_back / browser_go_forward step exactly one entry at a time, in real Chromium, through
 * a history of three pages the agent made: 1 → 2 → 3 by browser_navigate_tab, and again by link
 * clicks (browser_click_element). Chromium's own Back/Forward skip entries a page left without a
 * user gesture, which is every entry here; the tools must not.
 */
import type { Page } from "playwright-core";
import { callTool, e2eTest, pageAt } from "../helpers/e2e_fixture.ts";
import { assertEquals } from "../helpers/assert.ts";
import { failed, ok } from "../helpers/tool_replies.ts";

e2eTest(import.meta.url, "back and forward walk 1 → 2 → 3 one entry at a time", {
  config: {
    permissions: { "test-app": { permission: "auto" }, browser: { permission: "auto" } },
  },
}, async (t, { e2e }) => {
  const url = (path: string) => new URL(path, e2e.app.url).href;
  const call = async (tool: string, args: Record<string, unknown>, what: string) =>
    ok(await callTool(e2e, tool, args), what);

  /** back, back, forward (2), forward (3), forward (NO_HISTORY), checked in the page too. */
  async function walk(tabId: number, page: Page, pages: string[]) {
    const [one, two, three] = pages;
    const expect = async (value: Record<string, unknown>, at: string) => {
      assertEquals([value.tabId, value.url, value.loaded], [tabId, at, true]);
      // Playwright learns of the navigation from its own CDP event, which may come after the reply.
      await page.waitForURL(at, { timeout: 10_000 });
    };
    await expect(await call("browser_go_back", { tabId }, "back to 2"), two);
    await expect(await call("browser_go_back", { tabId }, "back to 1"), one);
    await expect(await call("browser_go_forward", { tabId }, "forward to 2"), two);
    await expect(await call("browser_go_forward", { tabId }, "forward to 3"), three);
    failed(await callTool(e2e, "browser_go_forward", { tabId }), {
      status: 422,
      code: "NO_HISTORY",
      category: "validation",
      message: /forward/,
    });
    assertEquals(page.url(), three, "NO_HISTORY left the page where it was");
  }

  await t.step("pages loaded with browser_navigate_tab", async () => {
    const pages = ["n1", "n2", "n3"].map((name) => url(`/counter?name=${name}`));
    const opened = await call("browser_open_tab", { url: pages[0] }, "open 1");
    const tabId = opened.tabId as number;
    const page = await pageAt(e2e, pages[0]);
    try {
      await call("browser_navigate_tab", { tabId, url: pages[1] }, "navigate 2");
      await call("browser_navigate_tab", { tabId, url: pages[2] }, "navigate 3");
      await page.waitForURL(pages[2], { timeout: 10_000 });
      await walk(tabId, page, pages);
    } finally {
      await page.close();
    }
  });

  await t.step("pages reached by clicking links", async () => {
    const pages = ["l1", "l2", "l3"].map((name) => url(`/counter?name=${name}`));
    const opened = await call("browser_open_tab", { url: pages[0] }, "open 1");
    const tabId = opened.tabId as number;
    const page = await pageAt(e2e, pages[0]);
    try {
      for (const next of pages.slice(1)) {
        // The counter page has no link of its own: the test adds one to the next page.
        await page.evaluate(
          `document.body.insertAdjacentHTML("beforeend", '<a id="next" href=${
            JSON.stringify(next)
          }>Next</a>')`,
        );
        await call("browser_click_element", { tabId, selector: "#next" }, `click to ${next}`);
        await page.waitForURL(next, { timeout: 10_000 });
        await page.waitForLoadState("load");
      }
      await walk(tabId, page, pages);
    } finally {
      await page.close();
    }
  });
});
