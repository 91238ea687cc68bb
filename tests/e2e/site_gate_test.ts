/**
 * The extension's site gate in the real browser (docs/decisions/072-site-permissions.md): real hub,
 * real Chromium with the installed extension, REST tool calls. Sites reached as `localhost` are
 * `off` (the recording site, tests/fixtures/recording_site.ts, and a server that holds its answer);
 * the test web app on 127.0.0.1 is `auto` (the e2e fixture's default).
 *
 * - Navigation is checked before the browser loads anything: browser_navigate_tab and
 *   browser_open_tab to an off site are refused, and its server sees no request.
 * - A tab mid-navigation is checked by where it is going too (its pending URL): while an off
 *   site holds its answer, a read of the tab is refused, though the tab still shows an allowed page.
 * - An off tab is not navigated away; an off site's own documents at URLs with no site of their own
 *   (a blob: page, an about:blank popup it wrote) are refused by their real origin; a navigation
 *   or new tab an allowed URL redirected to the off site is refused after the load, its title is
 *   not answered and the tab does not join the agent's group.
 * - A cross-origin frame follows its own site: a ref handed out inside it while it was allowed,
 *   its `frame` selector and a click at a point over it are refused once its site is off; the
 *   page around it still works by selector (a point anywhere in it is refused: the page could move
 *   the frame under it), and a frame call's audit entry names the frame's site.
 */
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { callTool, type E2E, type E2EOptions, e2eTest } from "../helpers/e2e_fixture.ts";
import { api, eventually } from "../helpers/hub_api.ts";
import { runHub } from "../helpers/hub_process.ts";
import { failed, listTabs, ok, tabIdOf } from "../helpers/tool_replies.ts";
import { type RecordingSite, startRecordingSite } from "../fixtures/recording_site.ts";

const TOOLS_AUTO = { "test-app": { permission: "auto" }, browser: { permission: "auto" } };

/** The recording site of the running test (started as the e2e fixture's service). */
let site: RecordingSite;
const siteService: E2EOptions["service"] = async () => {
  site = await startRecordingSite();
  return { env: {}, stop: () => site.close() };
};

// deno-lint-ignore no-explicit-any
async function audits(e2e: E2E, tool: string): Promise<any[]> {
  const reply = await api(e2e.hub, "GET", `/audit?tool=${tool}&limit=20`);
  assertEquals(reply.status, 200, JSON.stringify(reply.body));
  return reply.body;
}

/** A server on 127.0.0.1 (reached as localhost) that answers `/slow` only once released. */
function startHeldServer() {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  let asked = 0;
  let closed: Promise<void> | undefined;
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, async () => {
    asked++;
    await held;
    return new Response("<title>Slow</title><p>slow page</p>", {
      headers: { "content-type": "text/html" },
    });
  });
  return {
    url: `http://localhost:${server.addr.port}/slow`,
    key: `localhost:${server.addr.port}`,
    asked: () => asked,
    close() {
      release();
      return closed ??= server.shutdown();
    },
  };
}

e2eTest(import.meta.url, "navigation to an off site is refused before anything loads", {
  config: { permissions: TOOLS_AUTO, sitePermissions: { localhost: "off" } },
  service: siteService,
}, async (t, { e2e }) => {
  const page = await e2e.open("/");
  const tabId = await tabIdOf(e2e, page);

  await t.step(
    "browser_navigate_tab and browser_open_tab: refused, the site sees nothing",
    async () => {
      const navigated = failed(
        await callTool(e2e, "browser_navigate_tab", { tabId, url: `${site.origin}/hit/nav` }),
        { status: 403, code: "SITE_NOT_ALLOWED", category: "permission" },
      );
      assertEquals(
        navigated.message,
        `Browser tools are off for ${site.key} (rule "localhost"), so hub did not open it. A ` +
          "person can allow it: hub config set site-permission.localhost ask (or auto), or in " +
          "the side panel's Sites section.",
      );
      assertEquals(navigated.details, {
        site: site.key,
        origin: site.origin,
        pattern: "localhost",
        url: `${site.origin}/hit/nav`,
      });
      failed(
        await callTool(e2e, "browser_open_tab", { url: `${site.origin}/hit/open` }),
        { status: 403, code: "SITE_NOT_ALLOWED", message: /so hub did not open it/ },
      );
      assertEquals(site.requests(), []);
      assertEquals(page.url(), e2e.app.url);
      const pages = e2e.browser.context.pages().map((p) => p.url());
      assert(!pages.some((url) => url.startsWith(site.origin)), `${pages}`);
    },
  );

  await t.step("a tab on its way to an off site is refused by its pending URL", async () => {
    const held = startHeldServer();
    try {
      const going = page.goto(held.url).catch(() => undefined);
      await eventually(() => Promise.resolve(held.asked() > 0), () => "the tab never asked");
      // The tab still shows the allowed page: only its pending URL is the off site.
      const listed = (await listTabs(e2e)).find((tab) => tab.tabId === tabId);
      assertEquals(listed?.url, e2e.app.url);
      const refused = failed(
        await callTool(e2e, "browser_get_page_text", { tabId }),
        { status: 403, code: "SITE_NOT_ALLOWED", message: /so hub did nothing in this tab/ },
      );
      assertEquals([refused.details.site, refused.details.url], [held.key, held.url]);
      await held.close();
      await going;
    } finally {
      await held.close();
    }
  });
  await page.close();
});

e2eTest(import.meta.url, "an off site's own pages are refused wherever they show", {
  config: { permissions: TOOLS_AUTO, sitePermissions: { localhost: "off" } },
  service: siteService,
}, async (t, { e2e }) => {
  const page = await e2e.open("/");
  await page.goto(`${site.origin}/hit/start`);
  const tabId = await tabIdOf(e2e, page);
  const refused = { status: 403, code: "SITE_NOT_ALLOWED", message: /did nothing in this tab/ };

  await t.step("an off tab is not navigated away", async () => {
    failed(await callTool(e2e, "browser_navigate_tab", { tabId, url: e2e.app.url }), refused);
    assertEquals(page.url(), `${site.origin}/hit/start`);
  });

  await t.step("a blob: page the off site made is refused by its real origin", async () => {
    await page.evaluate(() => {
      const blob = new Blob(["<title>Statement</title><p>SECRET BALANCE</p>"], {
        type: "text/html",
      });
      location.href = URL.createObjectURL(blob);
    });
    await page.waitForURL(/^blob:/);
    for (
      const [name, args] of [["browser_get_page_text", {}], ["browser_execute_script", {
        code: "1",
      }]] as const
    ) {
      const error = failed(await callTool(e2e, name, { tabId, ...args }), refused);
      assertEquals(error.details.site, site.key, name);
    }
  });

  await t.step(
    "an about:blank popup the off site wrote is refused by its real origin",
    async () => {
      await page.goto(`${site.origin}/hit/opener`);
      // A string: Deno's types have no window.open.
      await page.evaluate(`(() => {
        const popup = window.open("", "_blank");
        popup.document.write("<title>Popup</title><p>SECRET POPUP</p>");
        popup.document.close();
      })()`);
      let popupId = 0;
      await eventually(async () => {
        popupId = (await listTabs(e2e)).find((tab) => tab.title === "Popup")?.tabId ?? 0;
        return popupId !== 0;
      }, () => "the popup never showed");
      for (const name of ["browser_get_page_text", "browser_snapshot"]) {
        const reply = await callTool(e2e, name, { tabId: popupId });
        assert(!JSON.stringify(reply.body).includes("SECRET POPUP"), `${name} read the popup`);
        failed(reply, refused);
      }
    },
  );

  await t.step(
    "a redirect to the off site: refused after the load, no title, not the agent's",
    async () => {
      const hop = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, (request) => {
        const path = new URL(request.url).pathname;
        return Response.redirect(`${site.origin}/hit/redirected${path}`, 302);
      });
      try {
        const start = await e2e.open("/");
        const startId = await tabIdOf(e2e, start);
        const via = `http://127.0.0.1:${hop.addr.port}`;
        const redirected = {
          status: 403,
          code: "SITE_NOT_ALLOWED",
          message: /redirected there: hub read nothing from the page/,
        };
        for (
          const [name, args] of [
            ["browser_navigate_tab", { tabId: startId, url: `${via}/nav` }],
            ["browser_open_tab", { url: `${via}/open` }],
          ] as const
        ) {
          const reply = await callTool(e2e, name, args);
          assert(
            !JSON.stringify(reply.body).includes("Hit redirected"),
            `${name} answered the title`,
          );
          const error = failed(reply, redirected);
          assertEquals(error.details.site, site.key, name);
        }
        const tabs = await listTabs(e2e);
        const landed = tabs.filter((tab) => tab.url.startsWith(`${site.origin}/hit/redirected/`));
        assertEquals(landed.length, 2, JSON.stringify(tabs));
        assertEquals(landed.map((tab) => tab.agentGroup), [false, false], JSON.stringify(landed));
        await start.close();
      } finally {
        await hop.shutdown();
      }
    },
  );
  await page.close();
});

e2eTest(import.meta.url, "a cross-origin frame follows its own site", {
  config: { permissions: TOOLS_AUTO },
}, async (t, { e2e }) => {
  const page = await e2e.open("/frames");
  const tabId = await tabIdOf(e2e, page);
  const cross = e2e.app.origin.replace("127.0.0.1", "localhost");
  const frameKey = cross.slice("http://".length);
  const call = (name: string, args: Record<string, unknown>) =>
    callTool(e2e, name, { tabId, ...args });
  await call("browser_wait_for_element", {
    frame: "#pay-frame",
    selector: "#pay",
    timeoutMs: 10_000,
  });
  let payRef = "";

  await t.step(
    "while the frame's site is allowed, a call in it runs and is audited there",
    async () => {
      const found = ok(
        await call("browser_query_elements", { frame: "#pay-frame", selector: "#pay" }),
        "query",
      );
      payRef = found.elements[0].ref;
      assertMatch(payRef, /^f\d+e\d+$/);
      const [entry] = await audits(e2e, "browser_query_elements");
      assertEquals([entry.success, entry.site], [true, cross], JSON.stringify(entry));
    },
  );

  await t.step("once its site is off, its ref and its frame selector are refused", async () => {
    const set = await runHub(["config", "set", "site-permission.localhost", "off"], {
      configDir: e2e.configDir,
      env: { HUB_PORT: String(e2e.hub.port) },
    });
    assertEquals(set.code, 0, `${set.stdout}\n${set.stderr}`);
    // deno-lint-ignore no-explicit-any
    let last: any;
    await eventually(
      async () => (last = await call("browser_click_element", { ref: payRef })).status === 403,
      () => `the click by ref was not refused: ${JSON.stringify(last?.body).slice(0, 600)}`,
    );
    const byRef = failed(last, { status: 403, code: "SITE_NOT_ALLOWED" });
    assertEquals([byRef.details.site, byRef.details.pattern], [frameKey, "localhost"]);
    failed(
      await call("browser_click_element", { frame: "#pay-frame", selector: "#pay" }),
      { status: 403, code: "SITE_NOT_ALLOWED", message: /so hub did nothing in this tab/ },
    );
    failed(
      await call("browser_get_page_text", { frame: "iframe[title=Payment]" }),
      { status: 403, code: "SITE_NOT_ALLOWED" },
    );
    const payFrame = page.frames().find((f) => f.url().includes("/frame-pay"))!;
    const pay = (await payFrame.locator("#pay").boundingBox())!;
    const center = { x: Math.round(pay.x + pay.width / 2), y: Math.round(pay.y + pay.height / 2) };
    failed(
      await call("browser_click_at", center),
      {
        status: 403,
        code: "SITE_NOT_ALLOWED",
        message: new RegExp(`embeds a frame of ${frameKey}, whose browser tools are off`),
      },
    );
    const status = await payFrame.locator("#status").textContent();
    assert(!status?.includes("Paid"), `the frame was acted on: ${status}`);
  });

  await t.step("the page around it, and its same-origin frame, still work", async () => {
    const typed = ok(
      await call("browser_type_text", { frame: "#form-frame", selector: "#name", text: "Ada" }),
      "type in the same-origin frame",
    );
    assertEquals(typed.tag, "input");
    const top = ok(await call("browser_get_page_text", { selector: "#out" }), "top text");
    assertEquals(top.text, "Top out");
    // Points anywhere in a page that embeds an off frame are refused (the page can move the frame).
    const field = (await page.locator("#name").boundingBox())!;
    failed(
      await call("browser_click_at", { x: field.x + 5, y: field.y + 5 }),
      { status: 403, code: "SITE_NOT_ALLOWED", message: /a page can move its frames/ },
    );
    const [entry] = await audits(e2e, "browser_type_text");
    assertEquals([entry.success, entry.site], [true, e2e.app.origin], JSON.stringify(entry));
  });
  await page.close();
});
