/**
 * Functions the service worker runs inside pages with `chrome.scripting.executeScript({ func })`.
 * Chromium serializes each one by its source, so they must not use anything from outside their
 * own body (no imports, no closures); the names they use are passed as arguments.
 */
import type { AdapterCall, AdapterResult } from "../../protocol/adapter.ts";

/** Signals that the adapter is not (or no longer) in the page, so the caller injects it. */
export type MaybeMissing = AdapterResult | { missing: true };

/** MAIN world: whether this document already holds the adapter build with `hash`. */
export function hasAdapterBuild(marker: string, plugin: string, hash: string): boolean {
  const marks = (globalThis as unknown as Record<string, Record<string, string>>)[marker];
  return marks?.[plugin] === hash;
}

/**
 * MAIN world: records that the adapter build with `hash` is in this document, if the adapter
 * file really registered itself (it can throw while loading); returns whether it did.
 */
export function markAdapterBuild(
  registry: string,
  marker: string,
  plugin: string,
  hash: string,
): boolean {
  const scope = globalThis as unknown as Record<string, Record<string, unknown> | undefined>;
  if (!scope[registry]?.[plugin]) return false;
  (scope[marker] ??= {})[plugin] = hash;
  return true;
}

/** MAIN world: removes a plugin's adapter and its mark (the plugin was uninstalled). */
export function dropAdapter(registry: string, marker: string, plugin: string): void {
  const scope = globalThis as unknown as Record<string, Record<string, unknown> | undefined>;
  delete scope[registry]?.[plugin];
  delete scope[marker]?.[plugin];
}

/** MAIN world: `isReady(settings)` of the adapter, or `missing`. Never rejects. */
export async function probeAdapter(
  registry: string,
  marker: string,
  plugin: string,
  hash: string,
  settings: Record<string, unknown>,
): Promise<MaybeMissing> {
  const scope = globalThis as unknown as Record<string, Record<string, unknown> | undefined>;
  const adapter = scope[registry]?.[plugin] as
    | { isReady(s: unknown): Promise<AdapterResult> }
    | undefined;
  if (!adapter || scope[marker]?.[plugin] !== hash) return { missing: true };
  try {
    return await adapter.isReady(settings);
  } catch (error) {
    return { ok: true, value: false, reason: String(error) } as AdapterResult;
  }
}

/** The channel names `callAdapter` needs (protocol/adapter.ts), passed in as one argument. */
export interface PageChannel {
  registry: string;
  marker: string;
  pageSource: string;
  bridgeSource: string;
  /** How long to wait for the bridge to confirm delivery of the call's events. */
  flushMs: number;
}

/**
 * MAIN world: runs one tool call in the adapter, or reports `missing`. Never rejects. When the
 * call posted events (progress, logs), it waits until the bridge confirms they reached the
 * service worker, so the hub gets them before the result.
 */
export async function callAdapter(
  channel: PageChannel,
  plugin: string,
  hash: string,
  request: AdapterCall,
): Promise<MaybeMissing> {
  const scope = globalThis as unknown as Record<string, Record<string, unknown> | undefined>;
  const adapter = scope[channel.registry]?.[plugin] as
    | { call(r: AdapterCall): Promise<AdapterResult> }
    | undefined;
  if (!adapter || scope[channel.marker]?.[plugin] !== hash) return { missing: true };
  const flushed = (token: string) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        removeEventListener("message", onMessage);
        resolve();
      };
      const onMessage = (event: MessageEvent) => {
        const data = event.data as { source?: unknown; kind?: unknown; token?: unknown } | null;
        if (data?.source === channel.bridgeSource && data.token === token) done();
      };
      const timer = setTimeout(done, channel.flushMs);
      addEventListener("message", onMessage);
      postMessage({ source: channel.pageSource, kind: "flush", plugin, token }, "*");
    });
  try {
    const result = await adapter.call(request);
    if ((result.pageEvents ?? 0) > 0) await flushed(request.dispatchId);
    return result;
  } catch (error) {
    const message = `The adapter of ${plugin} failed: ${(error as Error)?.message ?? error}`;
    return {
      ok: false,
      error: { code: "ADAPTER_ERROR", message, category: "internal", retryable: false },
    };
  }
}
