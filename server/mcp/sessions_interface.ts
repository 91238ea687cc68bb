/**
 * What the hub's other parts (health, REST routes, wiring) need of the MCP sessions, declared
 * apart from their implementation (./sessions.ts).
 */
import type { PluginLogEntry } from "../../protocol/events.ts";
import type { McpMode } from "./mcp_server.ts";

export interface McpSessions {
  handle(req: Request, mode: McpMode): Promise<Response>;
  count(): number;
  /** Sends a plugin log entry to every session as `notifications/message`. */
  broadcastLog(plugin: string, entry: PluginLogEntry): void;
  /** Tells full-mode sessions that the tool list changed. */
  toolsChanged(): void;
  closeAll(): Promise<void>;
  /** Imports the SDK now, ahead of the first session (see Hub.preload). */
  preload(): Promise<void>;
}
