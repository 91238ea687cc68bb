/**
 * The adapter's private outbox: progress, log batches, readiness hints and call results wait in a
 * queue inside the adapter until the extension takes them through the adapter's door
 * (protocol/adapter.ts). Nothing is posted to the window, so page scripts can neither read these
 * events nor forge them. Each item is numbered in the order it was queued.
 */
import { type DoorItem, MAX_QUEUED_EVENTS, type PageEvent } from "../protocol/adapter.ts";

type ItemBody = DoorItem extends infer I ? I extends DoorItem ? Omit<I, "seq"> : never : never;

let queue: DoorItem[] = [];
let seq = 0;
let queuedEvents = 0;
const waiters = new Set<() => void>();

/**
 * Queues an item for the extension. An event wakes whoever waits for one; a result does not, as
 * the exchange that carried its call takes it (one `executeScript` per call, not two).
 */
export function queueItem(item: ItemBody): void {
  if (item.kind !== "result") {
    if (queuedEvents >= MAX_QUEUED_EVENTS) return;
    queuedEvents++;
  }
  queue.push({ ...item, seq: ++seq } as DoorItem);
  if (item.kind === "result") return;
  for (const wake of waiters) wake();
  waiters.clear();
}

export function postPageEvent(event: PageEvent): void {
  queueItem(event);
}

/** Everything queued, oldest first; the queue is empty afterwards. */
export function takeItems(): DoorItem[] {
  const items = queue;
  queue = [];
  queuedEvents = 0;
  return items;
}

/** The number of the oldest item still queued, or of the next one when none is. */
export function firstQueuedSeq(): number {
  return queue[0]?.seq ?? seq + 1;
}

/** Resolves once an event is queued, or after `ms`. */
export function eventQueued(ms: number): Promise<void> {
  if (queuedEvents > 0) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      waiters.delete(done);
      resolve();
    }
    waiters.add(done);
  });
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
