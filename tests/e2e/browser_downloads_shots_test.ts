/**
 * Downloads and screenshots end to end: real hub, real Chromium with the installed extension, the
 * test web app's download and screenshot pages (tests/fixtures/web_app/download_shot_pages.ts).
 * Every answer is checked against what the browser really did: the file on disk, the PNG's own
 * size against the element's box as the page measures it.
 */
import { join } from "node:path";
import { assert, assertEquals } from "../helpers/assert.ts";
import { callTool, e2eTest } from "../helpers/e2e_fixture.ts";
import { eventually } from "../helpers/hub_api.ts";
import { ok, tabIdOf } from "../helpers/tool_replies.ts";
import { fileBody } from "../fixtures/web_app/download_shot_pages.ts";
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

  await t.step("a download link clicked is listed with its file", async () => {
    ok(
      await callTool(e2e, "browser_click_element", { tabId, selector: "#report" }),
      "click #report",
    );
    const report = await listed("report.txt", "complete");
    const body = fileBody("report.txt");
    assertEquals(report.path, join(folder, "report.txt"));
    assertEquals([report.bytesReceived, report.totalBytes], [body.length, body.length]);
    assertEquals(report.url, new URL("/dl/file?name=report.txt", e2e.app.url).href);
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
