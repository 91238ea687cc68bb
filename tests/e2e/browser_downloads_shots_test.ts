/**
 * Downloads and screenshots end to end: real hub, real Chromium with the installed extension, the
 * test web app's download and screenshot pages (tests/fixtures/web_app/download_shot_pages.ts).
 * Every answer is checked against what the browser really did: the file on disk, the PNG's own
 * size against the element's box as the page measures it.
 */
import { join } from "node:path";
import type { Page } from "playwright-core";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { callTool, type E2E, e2eTest } from "../helpers/e2e_fixture.ts";
import { eventually } from "../helpers/hub_api.ts";
import { failed, ok, tabIdOf } from "../helpers/tool_replies.ts";
import { CARD, fileBody, SHOT_PAGE_HEIGHT, TALL } from "../fixtures/web_app/download_shot_pages.ts";
import type { DownloadEntry } from "../../protocol/browser_methods/downloads.ts";

e2eTest(import.meta.url, "downloads: listed with their files and states", {
  config: { permissions: { browser: { permission: "auto" } } },
}, async (t, { e2e }) => {
  const folder = await Deno.makeTempDir({ prefix: "hub-downloads-" });
  const page = await e2e.open("/dl/page");
  const tabId = await tabIdOf(e2e, page);
  // Playwright has Chromium save downloads in a folder of its own under made-up names; a person's
  // browser keeps the names the site gives. Put that back, into a folder of the test's.
  const cdp = await e2e.browser.context.newCDPSession(page);
  await cdp.send("Browser.setDownloadBehavior", { behavior: "allow", downloadPath: folder });

  const list = async (args: Record<string, unknown> = {}) =>
    ok(await callTool(e2e, "browser_list_downloads", args), "browser_list_downloads")
      .downloads as DownloadEntry[];
  /** The newest download named `filename` once it is in `state`. */
  const listed = async (filename: string, state: string) => {
    let found: DownloadEntry | undefined;
    await eventually(async () => {
      found = (await list()).find((d) => d.filename === filename);
      return found?.state === state;
    }, () => `no ${state} download ${filename}: ${JSON.stringify(found)}`);
    return found!;
  };

  await t.step("a click that starts a download reports it, and it is listed", async () => {
    const clicked = ok(
      await callTool(e2e, "browser_click_element", { tabId, selector: "#report" }),
      "click #report",
    );
    const url = new URL("/dl/file?name=report.txt", e2e.app.url).href;
    const body = fileBody("report.txt");
    assertEquals(clicked.download?.filename, "report.txt", JSON.stringify(clicked));
    assertEquals(clicked.download.url, url);
    assert(["in_progress", "complete"].includes(clicked.download.state));
    const report = await listed("report.txt", "complete");
    assertEquals(report.tabId, tabId);
    assertEquals(report.path, join(folder, "report.txt"));
    assertEquals([report.bytesReceived, report.totalBytes], [body.length, body.length]);
    assertEquals(report.url, url);
    assertEquals(new Date(report.startedAt).toISOString(), report.startedAt);
    assert(!("error" in report), JSON.stringify(report));
    assertEquals(await Deno.readTextFile(report.path), body);
  });

  await t.step("limit keeps the newest; state keeps those in it", async () => {
    ok(await callTool(e2e, "browser_click_element", { tabId, selector: "#csv" }), "click #csv");
    await listed("data.csv", "complete");
    assertEquals((await list({ limit: 1 })).map((d) => d.filename), ["data.csv"]);
    const complete = await list({ state: "complete" });
    assertEquals(complete.map((d) => d.filename), ["data.csv", "report.txt"]);
    assertEquals(await list({ state: "in_progress" }), []);
  });

  await cdp.detach().catch(() => {});
  await Deno.remove(folder, { recursive: true }).catch(() => {});
});

/** A base64 PNG's width and height (its IHDR chunk). */
function pngSize(data: string): { width: number; height: number } {
  const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
  assertEquals(new TextDecoder().decode(bytes.slice(1, 4)), "PNG");
  const view = new DataView(bytes.buffer);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

/** The colours at `points` ([x, y] in image pixels) of a base64 PNG, decoded by the page. */
function pixels(page: Page, data: string, points: [number, number][]): Promise<string[]> {
  return page.evaluate(`(async ({ data, points }) => {
    const image = new Image();
    image.src = "data:image/png;base64," + data;
    await image.decode();
    const canvas = document.createElement("canvas");
    [canvas.width, canvas.height] = [image.naturalWidth, image.naturalHeight];
    const context = canvas.getContext("2d");
    context.drawImage(image, 0, 0);
    return points.map(([x, y]) => {
      const [r, g, b] = context.getImageData(x, y, 1, 1).data;
      return "rgb(" + r + ", " + g + ", " + b + ")";
    });
  })(${JSON.stringify({ data, points })})`);
}

/** The image of a successful browser_screenshot_tab call, and its text blocks. */
async function shot(e2e: E2E, args: Record<string, unknown>) {
  const reply = await callTool(e2e, "browser_screenshot_tab", args);
  assertEquals(reply.status, 200, JSON.stringify(reply.body).slice(0, 500));
  const [image, ...texts] = reply.body.content as { type: string; data: string; text: string }[];
  assertEquals([image.type, reply.body.content[0].mimeType], ["image", "image/png"]);
  return { data: image.data, texts: texts.map((t) => t.text) };
}

/** An element's border box size in device pixels, as the page measures it. */
function deviceSize(page: Page, selector: string): Promise<{ width: number; height: number }> {
  return page.evaluate(`(() => {
    const box = document.querySelector(${JSON.stringify(selector)}).getBoundingClientRect();
    return {
      width: Math.round(box.width * devicePixelRatio),
      height: Math.round(box.height * devicePixelRatio),
    };
  })()`);
}

/** The page's (or window's, with `what` "inner") size in device pixels. */
function pageSize(
  page: Page,
  what: "scroll" | "inner",
): Promise<{ width: number; height: number }> {
  const [width, height] = what === "scroll"
    ? ["document.documentElement.scrollWidth", "document.documentElement.scrollHeight"]
    : ["innerWidth", "innerHeight"];
  return page.evaluate(`({
    width: Math.round(${width} * devicePixelRatio),
    height: Math.round(${height} * devicePixelRatio),
  })`);
}

const GREEN = "rgb(51, 170, 119)"; // #3a7

e2eTest(import.meta.url, "screenshots: one element, a tall element, the whole page", {
  config: { permissions: { browser: { permission: "auto" } } },
}, async (t, { e2e }) => {
  const page = await e2e.open("/shots/page");
  const tabId = await tabIdOf(e2e, page);

  await t.step("an element's PNG is the size of its box, and shows it", async () => {
    const { data, texts } = await shot(e2e, { tabId, selector: "#card" });
    const size = pngSize(data);
    assertEquals(size, await deviceSize(page, "#card"));
    assertEquals(texts, []);
    const corners: [number, number][] = [[size.width - 2, size.height - 2], [2, size.height - 2]];
    assertEquals(await pixels(page, data, corners), [GREEN, GREEN]);
  });

  await t.step("an element taller than the window comes whole", async () => {
    const window = await page.evaluate<number>("innerHeight");
    assert(TALL.height > window, `the window is ${window} px high`);
    const { data } = await shot(e2e, { tabId, selector: "#tall" });
    const size = pngSize(data);
    assertEquals(size, await deviceSize(page, "#tall"));
    const [top, bottom] = await pixels(page, data, [[10, 1], [10, size.height - 2]]);
    assertMatch(top, /^rgb\(2\d\d, \d{1,2}, \d{1,2}\)$/); // red at the top
    assertMatch(bottom, /^rgb\(\d{1,2}, \d{1,2}, 2\d\d\)$/); // blue at the bottom
  });

  await t.step("a ref names the element as well", async () => {
    const found = ok(
      await callTool(e2e, "browser_query_elements", { tabId, selector: "#card" }),
      "browser_query_elements",
    );
    const ref = found.elements[0].ref as string;
    const { data } = await shot(e2e, { tabId, ref });
    assertEquals(pngSize(data), await deviceSize(page, "#card"));
  });

  await t.step("an element in a cross-origin frame, by selector and frame", async () => {
    const frames = await e2e.open("/frames");
    const framesTab = await tabIdOf(e2e, frames);
    const { data } = await shot(e2e, { tabId: framesTab, selector: "#pay", frame: "#pay-frame" });
    const box = (await frames.frameLocator("#pay-frame").locator("#pay").boundingBox())!;
    const size = pngSize(data);
    const ratio = await frames.evaluate<number>("devicePixelRatio");
    // The clip is whole CSS pixels around the box, which may start and end inside a pixel.
    const near = (png: number, css: number) => Math.abs(png - css * ratio) <= 1.5 * ratio;
    assert(near(size.width, box.width), `${JSON.stringify(size)} vs ${JSON.stringify(box)}`);
    assert(near(size.height, box.height), `${JSON.stringify(size)} vs ${JSON.stringify(box)}`);
    await frames.close();
  });

  await t.step("fullPage is the whole page, top to bottom", async () => {
    const { data } = await shot(e2e, { tabId, fullPage: true });
    const whole = await pageSize(page, "scroll");
    assertEquals(pngSize(data), whole);
    const ratio = await page.evaluate<number>("devicePixelRatio");
    assertEquals(whole.height, Math.round(SHOT_PAGE_HEIGHT * ratio));
    const at = (b: typeof CARD) => [b.left + b.width - 5, b.top + b.height - 5] as [number, number];
    assertEquals(await pixels(page, data, [at(CARD)]), [GREEN]);
  });

  await t.step("the visible area is still what a plain call captures", async () => {
    const { data } = await shot(e2e, { tabId });
    const window = await pageSize(page, "inner");
    assertEquals(pngSize(data), window);
  });

  await t.step("fullPage with an element, or frame alone, is refused", async () => {
    failed(
      await callTool(e2e, "browser_screenshot_tab", { tabId, fullPage: true, selector: "#card" }),
      {
        status: 400,
        code: "INVALID_ARGUMENTS",
        message: /fullPage or an element/,
      },
    );
    failed(await callTool(e2e, "browser_screenshot_tab", { tabId, frame: "#x" }), {
      status: 400,
      code: "INVALID_ARGUMENTS",
      message: /frame goes with selector/,
    });
  });
});

e2eTest(import.meta.url, "screenshots with the debugger off: elements in the window only", {
  config: { debugger: "off", permissions: { browser: { permission: "auto" } } },
}, async (t, { e2e }) => {
  const page = await e2e.open("/shots/page");
  const tabId = await tabIdOf(e2e, page);

  await t.step(
    "an element that fits in the window is cut out of the window's capture",
    async () => {
      const { data } = await shot(e2e, { tabId, selector: "#card" });
      const size = pngSize(data);
      assertEquals(size, await deviceSize(page, "#card"));
      assertEquals(await pixels(page, data, [[size.width - 2, size.height - 2]]), [GREEN]);
    },
  );

  await t.step("a download needs no debugger: a synthetic click reports it too", async () => {
    const folder = await Deno.makeTempDir({ prefix: "hub-downloads-" });
    const links = await e2e.open("/dl/page");
    const cdp = await e2e.browser.context.newCDPSession(links);
    await cdp.send("Browser.setDownloadBehavior", { behavior: "allow", downloadPath: folder });
    const clicked = ok(
      await callTool(e2e, "browser_click_element", {
        tabId: await tabIdOf(e2e, links),
        selector: "#csv",
      }),
      "click #csv",
    );
    assertEquals([clicked.input, clicked.download?.filename], ["synthetic", "data.csv"]);
    await cdp.detach().catch(() => {});
    await links.close();
    await Deno.remove(folder, { recursive: true }).catch(() => {});
  });

  await t.step("a taller element and the full page fail with DEBUGGER_OFF", async () => {
    failed(await callTool(e2e, "browser_screenshot_tab", { tabId, selector: "#tall" }), {
      status: 422,
      code: "DEBUGGER_OFF",
      message: /does not fit in the window.*hub config set debugger auto/,
    });
    failed(await callTool(e2e, "browser_screenshot_tab", { tabId, fullPage: true }), {
      status: 422,
      code: "DEBUGGER_OFF",
      message: /hub config set debugger auto/,
    });
  });
});
