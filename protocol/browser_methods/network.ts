/** A tab's network requests, recorded by the extension. */
import * as z from "zod";
import { tabIdField } from "./fields.ts";
import type { BrowserMethodSpec } from "./spec.ts";

/**
 * Chromium's `webRequest` resource types, the names `resourceType` uses (`xmlhttprequest` covers
 * `fetch` too).
 */
export const RESOURCE_TYPES = [
  "main_frame",
  "sub_frame",
  "stylesheet",
  "script",
  "image",
  "font",
  "object",
  "xmlhttprequest",
  "ping",
  "csp_report",
  "media",
  "websocket",
  "webbundle",
  "other",
] as const;
export type ResourceType = typeof RESOURCE_TYPES[number];

/** The most requests kept per tab (the newest), and how many a list may return. */
export const MAX_REQUESTS_PER_TAB = 500;
/** The most characters of a URL kept; longer ones are cut with a marker. */
export const MAX_URL_CHARS = 2_000;
/** The most characters of a response body returned (text), or of its base64 (binary). */
export const MAX_BODY_CHARS = 100_000;
/** A request id: Chromium's own, with `-N` for the Nth hop after a redirect. */
export const REQUEST_ID_PATTERN = /^[0-9]{1,15}(-[0-9]{1,3})?$/;

/** `url` cut at MAX_URL_CHARS, with a marker that says how long it was. */
export function cutUrl(url: string): string {
  return url.length <= MAX_URL_CHARS
    ? url
    : `${url.slice(0, MAX_URL_CHARS)}…[cut: ${url.length} characters]`;
}

export const NETWORK_METHODS = {
  "network.requests": {
    input: z.object({
      tabId: tabIdField,
      urlIncludes: z.string().min(1).max(500).optional().describe(
        'Only requests whose URL contains this text (case-insensitive), e.g. "/api/". It is ' +
          "matched against the URL as listed, where values of secret query parameters (code, " +
          "token, key, sig, …) are redacted.",
      ),
      resourceTypes: z.array(z.enum(RESOURCE_TYPES)).min(1).max(RESOURCE_TYPES.length)
        .optional().describe(
          'Only these kinds, Chromium\'s webRequest names, e.g. ["xmlhttprequest"] for fetch ' +
            "and XMLHttpRequest calls, or main_frame, sub_frame, script, stylesheet, image, font, " +
            "media, websocket, ping, other.",
        ),
      statuses: z.array(z.number().int().min(100).max(599)).min(1).max(50).optional().describe(
        "Only requests answered with one of these HTTP statuses, e.g. [404, 500].",
      ),
      failedOnly: z.boolean().default(false).describe(
        "Only requests that went wrong: failed ones (no response: refused, aborted, blocked, " +
          "DNS error) and those answered with a status of 400 or more (default false).",
      ),
      limit: z.number().int().min(1).max(MAX_REQUESTS_PER_TAB).default(100).describe(
        `Return at most this many of the newest matching requests (1-${MAX_REQUESTS_PER_TAB}, ` +
          "default 100), oldest first.",
      ),
    }),
  },
  "network.request": {
    input: z.object({
      tabId: tabIdField,
      requestId: z.string().regex(REQUEST_ID_PATTERN, {
        message: 'not a request id: ids look like "1234" or "1234-1" (from ' +
          "browser_network_requests)",
      }).describe('The request\'s id from browser_network_requests, e.g. "1234".'),
      includeBody: z.boolean().default(false).describe(
        "Also return the response body (text up to 100,000 characters; binary as base64, " +
          "bounded the same). Needs the browser's debugger, which must have been attached " +
          "to the tab when the request ran (default false).",
      ),
    }),
  },
} satisfies Record<string, BrowserMethodSpec>;

/** One request as browser_network_requests lists it. */
export interface NetworkEntry {
  requestId: string;
  url: string;
  method: string;
  resourceType: ResourceType;
  /** The HTTP status; null until the request completed, and when no response came (failed). */
  status: number | null;
  /** No response: refused, aborted, blocked, DNS or TLS error (`errorText` says which). */
  failed: boolean;
  errorText?: string;
  /** The response's Content-Length, when it gave one. */
  bytes?: number;
  /** From its start to its end; null while in flight. */
  durationMs: number | null;
  /** ISO 8601. */
  startedAt: string;
}

/** A header as browser_network_request shows it (secret values redacted). */
export interface NetworkHeader {
  name: string;
  value: string;
}

/** One request with what browser_network_request adds. */
export interface NetworkEntryDetail extends NetworkEntry {
  statusText?: string;
  fromCache?: boolean;
  remoteAddress?: string;
  /** Where a redirect led (this request's next hop has the id `<id>-<n+1>`). */
  redirectUrl?: string;
  /** 0 for the top document, else the frame's id. */
  frameId: number;
  requestHeaders: NetworkHeader[];
  responseHeaders: NetworkHeader[];
  /** Why headers are missing or cut, when they are. */
  headersNote?: string;
}

/** A response body, bounded. */
export interface NetworkBody {
  mimeType?: string;
  /** The body's whole size in bytes. */
  bytes: number;
  encoding: "text" | "base64";
  /** The text (encoding text) or base64 (encoding base64), cut at MAX_BODY_CHARS. */
  data: string;
  truncated: boolean;
}

/** What each method of this file answers. */
export interface NetworkResults {
  "network.requests": {
    tabId: number;
    requests: NetworkEntry[];
    total: number;
    truncated: boolean;
    /** Set when the tab's earlier requests were dropped (the 20-tab bound); says so. */
    note?: string;
  };
  "network.request": {
    tabId: number;
    request: NetworkEntryDetail;
    body?: NetworkBody;
  };
}
