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
  /** What the adapters' doors handed out besides call results (`exposeDoor`), oldest first. */
  events: PageEvent[];
  /** `securitypolicyviolation` events as `directive blockedURI`. */
  violations: string[];
}

/**
 * The adapter bundle as a script that also keeps its completion value (the door's key and
 * secret, which only the extension gets when it injects the file) in `window.__testDoors`, so a
 * test without the extension can call the adapter the way the extension does.
 */
export function exposeDoor(adapterCode: string): string {
  const match = /^(\/\*[^]*?\*\/\s*)?([^]*?);?\s*$/.exec(adapterCode)!;
  return `${match[1] ?? ""}(globalThis.__testDoors ??= []).push(${match[2]});\n`;
}

/** Before any page script runs, records every CSP violation in `window.__collected`. */
export async function installCollector(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const collected: Collected = { events: [], violations: [] };
    Object.assign(globalThis, { __collected: collected });
    addEventListener("securitypolicyviolation", (e) => {
      // A SecurityPolicyViolationEvent (a DOM type; these tests type-check against Deno's lib).
      const v = e as unknown as { effectiveDirective: string; blockedURI: string };
      collected.violations.push(`${v.effectiveDirective} ${v.blockedURI}`);
    });
  });
}

/** What the collector holds, after taking what the exposed doors queued (`exposeDoor`). */
export function collected(page: Page): Promise<Collected> {
  return page.evaluate(async () => {
    const scope = globalThis as unknown as Record<string, unknown>;
    const all = scope.__collected as Collected;
    const doors = (scope.__testDoors ?? []) as { default: { key: string; secret: string } }[];
    for (const { default: { key, secret } } of doors) {
      const door = scope[key] as { exchange(s: string, c: unknown[], w: number): Promise<unknown> };
      const items = await door.exchange(secret, [], 0) as ({ seq: number } & PageEvent)[] | null;
      all.events.push(...(items ?? []).map(({ seq: _, ...e }) => e as PageEvent));
    }
    return all;
  });
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
 * Calls `plugin`'s adapter in the page through its door, the way the extension does (the newest
 * exposed door of the plugin, `exposeDoor`). The call starts from a page task (after a
 * `setTimeout`), not inside DevTools' evaluation, because Chromium lets code evaluated by DevTools
 * use `eval` even where the page's CSP forbids it. Events the call queued go to the collector.
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
    const scope = globalThis as unknown as Record<string, unknown>;
    const doors = (scope.__testDoors ?? []) as {
      default: { key: string; secret: string; plugin: string };
    }[];
    const { key, secret } = doors.filter((d) => d.default.plugin === plugin).at(-1)!.default;
    const door = scope[key] as { exchange(s: string, c: unknown[], w: number): Promise<unknown> };
    const items = await door.exchange(secret, [{ id: 1, request }], 0) as {
      seq: number;
      kind: string;
      result?: AdapterResult;
    }[];
    const events = (scope.__collected as Collected | undefined)?.events;
    for (const { seq: _, ...item } of items) {
      if (item.kind !== "result") events?.push(item as PageEvent);
    }
    return items.find((i) => i.kind === "result")!.result!;
  }, { plugin, request });
}

/** The door's `probe(settings)` of `plugin` in the page, from a page task like `callTool`. */
export function probeReady(
  page: Page,
  plugin: string,
  settings: Record<string, unknown> = {},
): Promise<AdapterResult> {
  return page.evaluate(async ({ plugin, settings }) => {
    await new Promise((resolve) => setTimeout(resolve, 0));
    const scope = globalThis as unknown as Record<string, unknown>;
    const doors = (scope.__testDoors ?? []) as {
      default: { key: string; secret: string; plugin: string };
    }[];
    const { key, secret } = doors.filter((d) => d.default.plugin === plugin).at(-1)!.default;
    const door = scope[key] as { probe(s: string, settings: unknown): Promise<unknown> };
    return await door.probe(secret, settings) as AdapterResult;
  }, { plugin, settings });
}
