/**
 * A hub whose MCP sessions answer through the SDK alone (hub option `mcpPath: "sdk"`, no fast
 * path), run as a child process like `hub start` on HUB_CONFIG_DIR: it prints the same
 * "listening on" line and stops on SIGTERM. The fuzz suites start it (`startFuzzHub({ mcpPath })`)
 * to hold both MCP seams to the same properties.
 */
import { serveInProcessHub } from "./in_process_hub.ts";

const dir = Deno.env.get("HUB_CONFIG_DIR");
if (!dir) throw new Error("Set HUB_CONFIG_DIR to the hub's config dir.");
const served = await serveInProcessHub(dir, { mcpPath: "sdk" });
console.log(`hub listening on ${served.url} (MCP through the SDK seam)`);
Deno.addSignalListener("SIGTERM", () => {
  served.stop().finally(() => Deno.exit(0));
});
