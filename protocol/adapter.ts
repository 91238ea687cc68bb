/**
 * The contract between a plugin adapter running in a page (built from the SDK by `hub-plugin
 * build`) and the extension that injects and calls it. Types only, plus constant names.
 *
 * The hand-over is private: page scripts share the MAIN world with the adapter, so nothing goes
 * through window events, window messages or a registry they could read or answer.
 *
 * - The extension injects the adapter file with `chrome.scripting.executeScript({ files })`. The
 *   file's completion value (the IIFE's return) is the adapter's `DoorKey`: the random name of a
 *   non-configurable, non-writable, non-enumerable property of the page's global object holding a
 *   frozen `AdapterDoor`, and the random secret every door method wants. The completion value goes
 *   from the page straight to the extension; no page script sees it.
 * - The extension calls the door with `executeScript({ world: "MAIN", func, args })`, whose
 *   arguments and return value page scripts cannot observe either. A call to a door with the
 *   wrong secret, or a closed one, does nothing and returns null.
 * - The adapter's events (progress, log batches, "probe me again") and call results go into a
 *   queue inside the adapter, numbered in the order they happened; `exchange` hands them out.
 *   A call's exchange returns once each of its calls answered or was cancelled by the extension
 *   (the hub ended it), or at the latest after `CALL_MAX_MS`, the hub's deadline, for a worker
 *   that went away without cancelling (a later answer goes out with a later exchange).
 */
import type { CallProgress, CallResult, LogLevel } from "./call_contract.ts";

export type { LogLevel };

/** Names of door properties on the page's global object start with this, then the plugin. */
export const DOOR_PREFIX = "__hubAdapter:";

export interface AdapterCall {
  tool: string;
  input: Record<string, unknown>;
  /** Identifies the call in progress events. */
  dispatchId: string;
  /** The plugin's resolved settings (defaults applied, url fields as instance maps). */
  settings: Record<string, unknown>;
  /** The chosen instance, when the plugin has instances. */
  instance?: { name: string; url: string };
}

/** The adapter's answer: the call contract's result (the extension adds the tab). */
export type AdapterResult = CallResult;

/** What the adapter file evaluates to: where its door is and the secret it opens with. */
export interface DoorKey {
  /** `DOOR_PREFIX + plugin + ":" + random`. */
  key: string;
  secret: string;
  plugin: string;
  sdkVersion: string;
}

/** One call handed to the adapter; its answer comes back as a `result` item with the same id. */
export interface DoorCall {
  id: number;
  request: AdapterCall;
}

/** The adapter's entry points (all take the door's secret first). */
export interface AdapterDoor {
  /**
   * Starts `calls`, then waits: until all of them have answered when there are any, else until
   * something is queued or `waitMs` passed. Returns (and removes) everything queued.
   */
  exchange(secret: string, calls: DoorCall[], waitMs: number): Promise<DoorItem[] | null>;
  /**
   * The number of the oldest item not handed out yet (of the next one queued, when none waits).
   * A new worker (the service worker restarted) starts counting there: items handed out before it
   * went to a worker that is gone.
   */
  nextSeq(secret: string): number | null;
  /** `isReady(settings)`: `{ ok: true, value: boolean }`, false when not ready or after 5 s. */
  probe(secret: string, settings: Record<string, unknown>): Promise<AdapterResult | null>;
  /**
   * The extension let go of calls `ids` (the hub ended them): the exchanges carrying them stop
   * waiting for them. A handler cannot be stopped; its answer, if it comes, goes out with a later
   * exchange. Optional: adapters built before it have none.
   */
  cancel?(secret: string, ids: number[]): boolean;
  /** Closes the door for good (the plugin was turned off, removed or replaced). */
  close(secret: string): boolean;
}

export interface LogEntry {
  level: LogLevel;
  message: string;
  /** Milliseconds since epoch. */
  timestamp: number;
  data?: unknown;
}

/** An event of the adapter. The plugin is the door's: an adapter can only speak for itself. */
export type PageEvent =
  | { kind: "progress"; dispatchId: string } & CallProgress
  | { kind: "log"; entries: LogEntry[] }
  | { kind: "readiness" };

/** What `exchange` hands out, numbered from 1 in the order it was queued. */
export type DoorItem =
  & { seq: number }
  & (PageEvent | { kind: "result"; id: number; result: AdapterResult });

/**
 * Events an adapter keeps for the extension at most (more are dropped; results always stay), so
 * one exchange hands out at most this many events besides the answers of calls.
 */
export const MAX_QUEUED_EVENTS = 2_000;

/** Readiness probe limit (docs/plugins.md). */
export const READY_TIMEOUT_MS = 5_000;
