/**
 * Real Chromium for browser tests, driven by playwright-core (never a downloaded browser): the
 * launch itself, and helpers to call a plugin adapter that was injected into a page and to read
 * what it posted to the window (progress, log batches, readiness hints). Whether the browser
 * suites run at all is decided in browser_gate.ts.
 */
import { type Browser, chromium, type Page } from "playwright-core";
import type { AdapterCall, AdapterResult, PageEvent } from "../../protocol/adapter.ts";
import { CHROMIUM_PATH } from "./browser_gate.ts";

export { browserGate, CHROMIUM_PATH } from "./browser_gate.ts";

/** Chromium flags for every browser test: headless new mode, no sandbox, nothing phoning home. */
export const CHROMIUM_ARGS = [
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/**
 * Launches headless Chromium with `CHROMIUM_ARGS` and no extension.
 * playwright's `launch` gives the browser a fresh temp profile of its own (and refuses
 * `--user-data-dir`), and removes it on `close()`.
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
  });
}

/** What the collector (see `installCollector`) saw in the page. */
export interface Collected {
  events: PageEvent[];
  /** `securitypolicyviolation` events as `directive blockedURI`. */
  violations: string[];
}

/**
 * Before any page script runs, records every message the adapter posts
 * (`source === "hub-adapter"`) and every CSP violation, in `window.__collected`.
 */
export async function installCollector(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const collected: Collected = { events: [], violations: [] };
    Object.assign(globalThis, { __collected: collected });
    addEventListener("message", (e) => {
      const data = (e as MessageEvent).data;
      if (data?.source === "hub-adapter") collected.events.push(data);
    });
    addEventListener("securitypolicyviolation", (e) => {
      // A SecurityPolicyViolationEvent (a DOM type; these tests type-check against Deno's lib).
      const v = e as unknown as { effectiveDirective: string; blockedURI: string };
      collected.violations.push(`${v.effectiveDirective} ${v.blockedURI}`);
    });
  });
}

export function collected(page: Page): Promise<Collected> {
  return page.evaluate(() => (globalThis as unknown as { __collected: Collected }).__collected);
}

/** Waits until the page collected at least `count` events of `kind`, and returns those. */
export async function eventsOf<K extends PageEvent["kind"]>(
  page: Page,
  kind: K,
  count: number,
  timeoutMs = 5_000,
): Promise<Extract<PageEvent, { kind: K }>[]> {
  const deadline = Date.now() + timeoutMs;
  while (true) {
    const events = (await collected(page)).events.filter((e) => e.kind === kind);
    if (events.length >= count || Date.now() > deadline) {
      return events as Extract<PageEvent, { kind: K }>[];
    }
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * Calls `adapter.call(...)` of `plugin` in the page, the way the extension does. The call starts
 * from a page task (after a `setTimeout`), not inside DevTools' evaluation, because Chromium lets
 * code evaluated by DevTools use `eval` even where the page's CSP forbids it.
 */
export function callTool(
  page: Page,
  plugin: string,
  call: Partial<AdapterCall> & { tool: string },
): Promise<AdapterResult> {
  const request: AdapterCall = {
    input: {},
    dispatchId: `d-${crypto.randomUUID()}`,
    settings: {},
    ...call,
  };
  return page.evaluate(async ({ plugin, request }) => {
    await new Promise((resolve) => setTimeout(resolve, 0));
    const registry = (globalThis as Record<string, unknown>).__hubAdapters as Record<
      string,
      { call(r: unknown): Promise<unknown> }
    >;
    return await registry[plugin].call(request) as AdapterResult;
  }, { plugin, request });
}

/** `adapter.isReady(settings)` of `plugin` in the page, from a page task like `callTool`. */
export function probeReady(
  page: Page,
  plugin: string,
  settings: Record<string, unknown> = {},
): Promise<AdapterResult> {
  return page.evaluate(async ({ plugin, settings }) => {
    await new Promise((resolve) => setTimeout(resolve, 0));
    const registry = (globalThis as Record<string, unknown>).__hubAdapters as Record<
      string,
      { isReady(s: unknown): Promise<unknown> }
    >;
    return await registry[plugin].isReady(settings) as AdapterResult;
  }, { plugin, settings });
}
