/// <reference lib="deno.ns" />
/**
 * The network recorder's own work (network_log.ts), without Chromium: 1,000 requests, each with
 * the three chrome.webRequest events a plain request brings (before request, request headers sent,
 * completed with response headers), spread over four tabs. bench/browser_network.ts measures what
 * calls see in a real Chromium.
 */
import { createNetworkLog } from "./network_log.ts";

const HEADERS = [
  { name: "Content-Type", value: "application/json" },
  { name: "Content-Length", value: "120" },
  { name: "Cache-Control", value: "no-store" },
];

const log = createNetworkLog();
let id = 0;

Deno.bench("network recorder: 1,000 requests (3 webRequest events each)", () => {
  for (let i = 0; i < 1000; i++) {
    const base = {
      requestId: String(++id),
      tabId: 1 + (i % 4),
      frameId: 0,
      url: `https://example.test/api/items?page=${id}`,
      method: "GET",
      type: "xmlhttprequest",
      timeStamp: Date.now(),
    };
    log.events.beforeRequest(base);
    log.events.sendHeaders({ ...base, requestHeaders: HEADERS });
    log.events.completed({ ...base, statusCode: 200, responseHeaders: HEADERS });
  }
});
