/**
 * The page side of the adapter's event channel: progress, log batches and readiness hints are
 * posted to the window, where the extension's listener picks them up (protocol/adapter.ts).
 */
import { PAGE_EVENT_SOURCE, type PageEvent } from "../protocol/adapter.ts";

type EventBody = PageEvent extends infer E ? E extends PageEvent ? Omit<E, "source"> : never
  : never;

export function postPageEvent(event: EventBody): void {
  const target = globalThis as { postMessage?: (message: unknown, origin: string) => void };
  if (typeof target.postMessage !== "function") return;
  try {
    target.postMessage({ ...event, source: PAGE_EVENT_SOURCE }, "*");
  } catch {
    // A value that cannot be cloned must not break the tool; logs sanitize before posting.
  }
}

/**
 * A JSON-safe copy of any value: functions, DOM nodes and real cycles become descriptive strings;
 * an object that appears twice (not inside itself) is copied twice. Over `maxLength` characters of
 * JSON, the copy is cut into a string with a truncation marker.
 */
export function toJsonSafe(value: unknown, maxLength = 10_000): unknown {
  let copy: unknown;
  try {
    copy = cloneSafe(value, [], 0);
  } catch (error) {
    return `[unserializable: ${(error as Error).message}]`;
  }
  if (copy === undefined) return undefined;
  const text = JSON.stringify(copy);
  if (text.length > maxLength) return `${text.slice(0, maxLength)}… [truncated]`;
  return copy;
}

const MAX_DEPTH = 64;

function cloneSafe(value: unknown, ancestors: object[], depth: number): unknown {
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number":
      return Number.isFinite(value) ? value : null;
    case "bigint":
      return value.toString();
    case "function":
      return `[function ${value.name || "anonymous"}]`;
    case "undefined":
    case "symbol":
      return undefined;
  }
  if (value === null) return null;
  const object = value as Record<string, unknown> & { toJSON?: () => unknown };
  if (ancestors.includes(object)) return "[circular]";
  if (typeof (object as { nodeType?: unknown }).nodeType === "number") return "[DOM node]";
  if (typeof object.toJSON === "function") return cloneSafe(object.toJSON(), ancestors, depth);
  if (depth >= MAX_DEPTH) return "[too deep]";
  ancestors.push(object);
  try {
    if (Array.isArray(object)) {
      return object.map((item) => cloneSafe(item, ancestors, depth + 1) ?? null);
    }
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(object)) {
      const copy = cloneSafe(item, ancestors, depth + 1);
      // defineProperty keeps an own "__proto__" key as data instead of replacing the prototype.
      if (copy !== undefined) {
        Object.defineProperty(out, key, {
          value: copy,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
    }
    return out;
  } finally {
    ancestors.pop();
  }
}
