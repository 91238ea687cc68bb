/**
 * The server's public door: what the `hub` CLI (and anything else outside `server/`) may use.
 * `createHub` assembles a hub from its parts, `listen` puts it on a port, and the rest are the
 * few helpers and types the CLI needs around them. Everything else in `server/` is internal.
 */
export { createHub, type Hub, type HubOptions } from "./hub.ts";
export { connectionCap, listen, type ListenOptions } from "./net/listen.ts";
export { createLogger } from "./log/logger.ts";
export type { Logger } from "./log/logger_interface.ts";
export { startMemorySettle } from "./memory_settle.ts";
export { installExtension } from "./extension/install.ts";
export { BROWSER_TOOLS } from "./browser_tools/mod.ts";
export { effectivePermission } from "./permissions/effective.ts";
export type { ListedTool } from "./calls/catalog_interface.ts";
export type { CallToolResult } from "./calls/results.ts";
