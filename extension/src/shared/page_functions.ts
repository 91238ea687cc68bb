/**
 * Functions the service worker runs inside pages with `chrome.scripting.executeScript({ func })`.
 * Chromium serializes each one by its source, so they must not use anything from outside their
 * own body (no imports, no closures); the names they use are passed as arguments.
 */
import type { AdapterResult } from "../../../protocol/adapter.ts";
import type { MaybeMissing } from "./page_messages.ts";

/** Where a page records which adapter build it holds: `globalThis[ADAPTER_MARK][plugin] = hash`. */
export const ADAPTER_MARK = "__hubAdapterBuilds";

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
