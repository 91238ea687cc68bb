/**
 * The contract between a plugin adapter running in a page (built from the SDK by `hub-plugin
 * build`) and the extension that injects and calls it. Types only, plus constant names.
 *
 * - An injected adapter registers itself as `globalThis[ADAPTER_REGISTRY][<plugin>]`. Injecting
 *   a newer build replaces the entry.
 * - The extension calls `isReady` and `call` in the page's MAIN world; both always resolve (never
 *   reject) so an error keeps its code and category across `executeScript`.
 * - The page reports progress, log entries and "please probe readiness again" with
 *   `window.postMessage(event, "*")` where `event.source === PAGE_EVENT_SOURCE`. The extension's
 *   bridge forwards them to the service worker in the order they were posted.
 */
import type { ErrorPayload } from "./errors.ts";

export const ADAPTER_REGISTRY = "__hubAdapters";
export const PAGE_EVENT_SOURCE = "hub-adapter";

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

export type AdapterResult =
  | { ok: true; value: unknown }
  | { ok: false; error: ErrorPayload };

export interface PageAdapter {
  plugin: string;
  version: string;
  sdkVersion: string;
  tools: string[];
  /** Resolves to `{ ok: true, value: boolean }`; false when not ready or after 5 s. */
  isReady(settings: Record<string, unknown>): Promise<AdapterResult>;
  call(request: AdapterCall): Promise<AdapterResult>;
}

export type LogLevel = "debug" | "info" | "warn" | "error";

export interface LogEntry {
  level: LogLevel;
  message: string;
  /** Milliseconds since epoch. */
  timestamp: number;
  data?: unknown;
}

export type PageEvent =
  | {
    source: typeof PAGE_EVENT_SOURCE;
    kind: "progress";
    plugin: string;
    dispatchId: string;
    progress: number;
    total?: number;
    message?: string;
  }
  | { source: typeof PAGE_EVENT_SOURCE; kind: "log"; plugin: string; entries: LogEntry[] }
  | { source: typeof PAGE_EVENT_SOURCE; kind: "readiness"; plugin: string };

/** What the extension's own page scripts (bridge, runner) post to each other in the window. */
export const BRIDGE_EVENT_SOURCE = "hub-bridge";

/** Readiness probe limit (docs/plugins.md). */
export const READY_TIMEOUT_MS = 5_000;
