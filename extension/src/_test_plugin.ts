/// <reference lib="deno.ns" />
/** A `SyncPlugin` as the hub sends it, for the extension's unit tests. */
import type { SyncPlugin } from "../../protocol/events.ts";

export function syncPlugin(name: string, fields: Partial<SyncPlugin> = {}): SyncPlugin {
  return {
    name,
    displayName: name,
    version: "1.0.0",
    urlPatterns: ["http://127.0.0.1/*"],
    excludePatterns: [],
    adapterFile: `${name}-abc.js`,
    adapterHash: "abc",
    sdkVersion: "0.1.0",
    settings: {},
    instances: {},
    permission: "auto",
    needsReview: false,
    tools: [],
    ...fields,
  };
}
