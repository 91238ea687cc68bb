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

/** A JSON-safe copy of any value (cycles, functions and DOM nodes become descriptive strings). */
export function toJsonSafe(value: unknown, maxLength = 10_000): unknown {
  if (value === undefined) return undefined;
  const seen = new WeakSet<object>();
  let text: string | undefined;
  try {
    text = JSON.stringify(value, (_key, v) => {
      if (typeof v === "bigint") return v.toString();
      if (typeof v === "function") return `[function ${v.name || "anonymous"}]`;
      if (typeof v === "object" && v !== null) {
        if (seen.has(v)) return "[circular]";
        seen.add(v);
        if (typeof (v as { nodeType?: unknown }).nodeType === "number") return "[DOM node]";
      }
      return v;
    });
  } catch (error) {
    return `[unserializable: ${(error as Error).message}]`;
  }
  if (text === undefined) return undefined;
  if (text.length > maxLength) return `${text.slice(0, maxLength)}… [truncated]`;
  return JSON.parse(text);
}
