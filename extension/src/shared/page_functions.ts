/**
 * Functions the service worker runs inside pages with `chrome.scripting.executeScript({ func })`
 * to reach an adapter's door (protocol/adapter.ts). Chromium serializes each one by its source,
 * so they must not use anything from outside their own body (no imports, no closures); what they
 * need comes as arguments, which page scripts cannot see, and so do their results. They find the
 * door as `window[key]`: `window` cannot be replaced by a page, and the door property cannot be
 * redefined; nothing goes through a built-in (`Object.*`, `Array.*`) a page may have swapped.
 */
import type { AdapterDoor, AdapterResult, DoorCall, DoorItem } from "../../../protocol/adapter.ts";

/** The answer of a page whose door is gone (it navigated, or the door was closed). */
export interface Missing {
  missing: true;
}

/** MAIN world: whether the door at `key` is there (it stays until the document goes away). */
export function hasDoor(key: string): boolean {
  if (!key) return false;
  const scope = (typeof window === "object" ? window : globalThis) as unknown as Record<
    string,
    { exchange?: unknown } | undefined
  >;
  return typeof scope[key]?.exchange === "function";
}

/**
 * MAIN world: `exchange` on the door at `key`; `missing` when there is none (nothing ran),
 * `closed` when it refused or threw (it was closed, maybe while its calls ran).
 */
export async function doorExchange(
  key: string,
  secret: string,
  calls: DoorCall[],
  waitMs: number,
): Promise<{ items: DoorItem[] } | Missing | { closed: true }> {
  const scope = (typeof window === "object" ? window : globalThis) as unknown as Record<
    string,
    AdapterDoor | undefined
  >;
  const door = scope[key];
  if (typeof door?.exchange !== "function") return { missing: true };
  try {
    const items = await door.exchange(secret, calls, waitMs);
    return items ? { items } : { closed: true };
  } catch {
    return { closed: true };
  }
}

/**
 * MAIN world: tells the door at `key` the worker let go of calls `ids` (`cancel`), so the exchange
 * carrying them stops waiting for them. A door built before `cancel` existed ignores it.
 */
export function doorCancel(key: string, secret: string, ids: number[]): boolean {
  const scope = (typeof window === "object" ? window : globalThis) as unknown as Record<
    string,
    AdapterDoor | undefined
  >;
  try {
    return scope[key]?.cancel?.(secret, ids) === true;
  } catch {
    return false;
  }
}

/** MAIN world: where the door at `key` counts its items from now on (`nextSeq`), or `missing`. */
export function doorNextSeq(key: string, secret: string): { seq: number } | Missing {
  const scope = (typeof window === "object" ? window : globalThis) as unknown as Record<
    string,
    AdapterDoor | undefined
  >;
  try {
    const seq = scope[key]?.nextSeq?.(secret);
    return typeof seq === "number" ? { seq } : { missing: true };
  } catch {
    return { missing: true };
  }
}

/** MAIN world: the door's `isReady(settings)`, or `missing`. Never rejects. */
export async function doorProbe(
  key: string,
  secret: string,
  settings: Record<string, unknown>,
): Promise<AdapterResult | Missing> {
  const scope = (typeof window === "object" ? window : globalThis) as unknown as Record<
    string,
    AdapterDoor | undefined
  >;
  const door = scope[key];
  if (typeof door?.probe !== "function") return { missing: true };
  try {
    return (await door.probe(secret, settings)) ?? { missing: true };
  } catch (error) {
    return { ok: true, value: false, reason: String(error) } as AdapterResult;
  }
}

/** MAIN world: closes the door (the plugin was turned off, removed or replaced). */
export function doorClose(key: string, secret: string): boolean {
  const scope = (typeof window === "object" ? window : globalThis) as unknown as Record<
    string,
    AdapterDoor | undefined
  >;
  try {
    return scope[key]?.close?.(secret) === true;
  } catch {
    return false;
  }
}
