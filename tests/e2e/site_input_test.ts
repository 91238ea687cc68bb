/**
 * Input the page steers, in the real browser (docs/decisions/072-site-permissions.md): real hub,
 * real Chromium with the installed extension, REST tool calls. The recording site
 * (tests/fixtures/recording_site.ts), reached as `localhost`, is `off`; a hostile page on
 * 127.0.0.1 (allowed) embeds it.
 *
 * - Keys sent without a ref or selector go to the focused element: when the page has put the
 *   focus into the off frame, browser_press_key is refused and the off site's server sees
 *   nothing; with the focus back in the page it works.
 * - Input at coordinates on a page that embeds an off frame is refused wherever the point is: the
 *   page flips the frame above and below a cover, so the frame under a point cannot be trusted. A
 *   click by selector on the page still works.
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { callTool, type E2EOptions, e2eTest } from "../helpers/e2e_fixture.ts";
import { eventually } from "../helpers/hub_api.ts";
import { failed, ok, tabIdOf } from "../helpers/tool_replies.ts";
import { type RecordingSite, startRecordingSite } from "../fixtures/recording_site.ts";

const TOOLS_AUTO = { "test-app": { permission: "auto" }, browser: { permission: "auto" } };

let site: RecordingSite;
const siteService: E2EOptions["service"] = async () => {
  site = await startRecordingSite();
  return { env: {}, stop: () => site.close() };
};

/** A page on 127.0.0.1 serving `body` (with the off site's page as `FRAME`). */
function startHostile(body: (frameUrl: string) => string) {
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, () =>
    new Response(
      `<!doctype html><title>Hostile</title><style>body{margin:0}</style>` +
        body(`${site.origin}/site/page`),
      { headers: { "content-type": "text/html", "cache-control": "no-store" } },
    ));
  return { url: `http://127.0.0.1:${server.addr.port}/`, close: () => server.shutdown() };
}

const FOCUSING = (frame: string) =>
  `<input id="mine"><iframe id="f" src="${frame}" style="width:600px;height:300px"></iframe>
<script>document.getElementById("f").addEventListener("load", () =>
  document.getElementById("f").contentWindow.focus());</script>`;

const SWAPPING = (frame: string) =>
  `<iframe id="f" src="${frame}" style="position:absolute;left:0;top:0;width:600px;height:400px;
border:0;z-index:1"></iframe>
<div id="cover" style="position:absolute;left:0;top:0;width:600px;height:400px;background:#fff;
z-index:5">Harmless cover</div>
<button id="mine" style="position:absolute;left:650px;top:10px"
  onclick="this.textContent='clicked'">Mine</button>
<script>let up = false;
setInterval(() => { up = !up; document.getElementById("f").style.zIndex = up ? "10" : "1"; }, 37);
</script>`;

e2eTest(import.meta.url, "keys into a frame the page focused follow the frame's site", {
  config: { permissions: TOOLS_AUTO, sitePermissions: { localhost: "off" } },
  service: siteService,
}, async (t, { e2e }) => {
  const hostile = startHostile(FOCUSING);
  try {
    const page = await e2e.open("/");
    await page.goto(hostile.url);
    const frame = page.frames().find((f) => f.url().includes("/site/page"))!;
    await frame.waitForSelector("#press");
    await eventually(
      async () => (await page.evaluate(`document.activeElement?.id === "f"`)) === true,
      () => "the page never focused its frame",
    );
    const tabId = await tabIdOf(e2e, page);

    await t.step("keys without a target: refused, the off site sees nothing", async () => {
      for (const key of ["Tab", "Enter", "a"]) {
        failed(
          await callTool(e2e, "browser_press_key", { tabId, key }),
          { status: 403, code: "SITE_NOT_ALLOWED", message: new RegExp(`off for ${site.key}`) },
        );
      }
      assertEquals(site.hits(), []);
      assertEquals(await frame.locator("#state").textContent(), "untouched");
    });

    await t.step("with the focus back in the page, keys work", async () => {
      await page.focus("#mine");
      ok(await callTool(e2e, "browser_press_key", { tabId, key: "a" }), "key in the page");
      ok(await callTool(e2e, "browser_press_key", { tabId, key: "b" }), "another key");
      assertEquals(await page.locator("#mine").inputValue(), "ab");
      assertEquals(site.hits(), []);
    });
  } finally {
    await hostile.close();
  }
});

e2eTest(import.meta.url, "no input at coordinates on a page that embeds an off frame", {
  config: { permissions: TOOLS_AUTO, sitePermissions: { localhost: "off" } },
  service: siteService,
}, async (t, { e2e }) => {
  const hostile = startHostile(SWAPPING);
  try {
    const page = await e2e.open("/");
    await page.goto(hostile.url);
    const frame = page.frames().find((f) => f.url().includes("/site/page"))!;
    await frame.waitForSelector("#press");
    const box = (await frame.locator("#press").boundingBox())!;
    const over = { x: Math.round(box.x + box.width / 2), y: Math.round(box.y + box.height / 2) };
    const tabId = await tabIdOf(e2e, page);

    await t.step("click_at, move_mouse and drag by points: refused anywhere", async () => {
      const refused = failed(
        await callTool(e2e, "browser_click_at", { tabId, ...over }),
        { status: 403, code: "SITE_NOT_ALLOWED", message: /can move its frames/ },
      );
      assert(refused.message.includes("ref"), refused.message);
      assertEquals(refused.details.site, site.key);
      const beside = { tabId, x: 700, y: 200 };
      for (
        const [tool, input] of [
          ["browser_click_at", beside],
          ["browser_move_mouse", beside],
          ["browser_drag", { tabId, fromX: 700, fromY: 200, toX: over.x, toY: over.y }],
        ] as const
      ) {
        failed(await callTool(e2e, tool, input), {
          status: 403,
          code: "SITE_NOT_ALLOWED",
          message: /can move its frames/,
        });
      }
      assertEquals(site.hits(), []);
      assertEquals(await frame.locator("#state").textContent(), "untouched");
    });

    await t.step("a click by selector on the page still works", async () => {
      ok(await callTool(e2e, "browser_click_element", { tabId, selector: "#mine" }), "click #mine");
      assertEquals(await page.locator("#mine").textContent(), "clicked");
      assertEquals(site.hits(), []);
    });
  } finally {
    await hostile.close();
  }
});
