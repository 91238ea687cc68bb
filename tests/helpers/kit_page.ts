/**
 * One Chromium page for the DOM kit's tests without hub or extension
 * (tests/e2e/browser_snapshot_kit_test.ts): pages are served from memory on ORIGIN, the kit
 * (extension/src/page/dom_kit.ts, bundled with esbuild) is added to a document as a script, where
 * it installs `__hubDomKit` as it does in the extension's isolated world, and `snapshot` answers
 * what `__hubDomKit.run("page.snapshot", args)` does. `SNAPSHOT_DEBUG=1` prints every outline.
 */
import type { Browser, Frame, Page } from "playwright-core";
import { assert, assertMatch } from "./assert.ts";
import { launchChromium } from "./browser.ts";
import { bundlePageScript } from "./page_bundle.ts";

/** 127.0.0.1 is a secure context, as the test web app's pages are (the kit needs crypto). */
export const ORIGIN = "http://127.0.0.1:9";

/** The kit's answer value. */
export interface Outline {
  url: string;
  title: string;
  index: number;
  lines: string[];
  frames: { line: number; index: number; ref: string }[];
  stopped?: true;
}

/** The page, and what the tests do with it. */
export interface KitPage {
  page: Page;
  /** Runs the kit's snapshot in `where` (the page or a frame), adding the kit first when missing. */
  snapshot(where: Page | Frame, args?: Record<string, unknown>): Promise<Outline>;
  /** Serves `body` at `path` and, unless `load` is false, loads it as the page. */
  open(body: string, path?: string, load?: boolean): Promise<Page>;
  close(): Promise<void>;
}

/** Launches Chromium with one 1000×700 page that reads its pages from memory. */
export async function startKitPage(): Promise<KitPage> {
  // dom_kit.ts installs the kit on globalThis when a document is there
  const script = await bundlePageScript('import "./extension/src/page/dom_kit.ts";');
  const browser: Browser = await launchChromium();
  const page = await browser.newPage({ viewport: { width: 1000, height: 700 } });
  /** Pages by path, served to the browser from memory on ORIGIN (playwright's routing). */
  const pages = new Map<string, string>();
  await page.route(`${ORIGIN}/**`, (route) => {
    const body = pages.get(new URL(route.request().url()).pathname);
    return route.fulfill(
      body === undefined ? { status: 404 } : { contentType: "text/html; charset=utf-8", body },
    );
  });
  const snapshot = async (where: Page | Frame, args: Record<string, unknown> = {}) => {
    if (!await where.evaluate("typeof __hubDomKit === 'object'")) {
      await where.addScriptTag({ content: script });
    }
    const outcome = await where.evaluate(
      (a) =>
        (globalThis as unknown as { __hubDomKit: { run(op: string, args: unknown): unknown } })
          .__hubDomKit.run("page.snapshot", a),
      { interactiveOnly: false, includeHidden: false, ...args },
    ) as { ok: boolean; value: Outline; error?: unknown };
    assert(outcome.ok, JSON.stringify(outcome));
    if (Deno.env.get("SNAPSHOT_DEBUG")) console.log(outcome.value.lines.join("\n"));
    return outcome.value;
  };
  const open = async (body: string, path = "/test", load = true) => {
    pages.set(
      path,
      `<!doctype html><html><head><title>Test</title></head><body>${body}</body></html>`,
    );
    if (load) await page.goto(ORIGIN + path);
    return page;
  };
  return { page, snapshot, open, close: () => browser.close() };
}

/** Every line: indentation, `- `, then a role or `text:`; refs only at the end. */
const LINE =
  /^( {2})*- (text: .*|[a-z]+( "([^"\\]|\\.)*")?( \[[a-z]+(=([a-z0-9]+|"([^"\\]|\\.)*"))?\])*)$/;

/** Each line is one outline line (LINE): nothing a page wrote breaks out of its quotes. */
export function assertWellFormed(lines: string[]): void {
  for (const line of lines) assertMatch(line, LINE);
}
