/** The facts of a running hub, gathered from its parts for `/health`. */
import type { AuditSummary, HealthPayload } from "../protocol/health.ts";
import type { HubConfig } from "../core/config/schema.ts";
import { buildHealth, idleFileWatcher } from "./health.ts";
import type { PluginHost } from "./plugins/plugin_host.ts";
import { toPluginDetail } from "./plugins/registry.ts";
import type { TabStates } from "./extension/tab_states.ts";
import type { PluginLogs } from "./extension/plugin_logs.ts";
import { BROWSER_GROUP, type Catalog } from "./calls/catalog.ts";

export interface HubFacts {
  mode: "dev" | "production";
  startedAt: number;
  now: number;
  skipPermissions: boolean;
  plugins: PluginHost;
  tabs: TabStates;
  logs: PluginLogs;
  catalog: Catalog;
  config: HubConfig;
  extensionConnected: boolean;
  mcpClients: number;
  audit: AuditSummary;
}

export function hubHealth(facts: HubFacts): HealthPayload {
  const browserToolNames = facts.catalog.allNames(BROWSER_GROUP);
  return buildHealth({
    mode: facts.mode,
    startedAt: facts.startedAt,
    now: facts.now,
    skipPermissions: facts.skipPermissions,
    extensionConnections: facts.extensionConnected ? 1 : 0,
    mcpClients: facts.mcpClients,
    plugins: facts.plugins.registry().plugins.map((p) =>
      toPluginDetail(p, facts.tabs.of(p.name), facts.logs.size(p.name))
    ),
    failedPlugins: facts.plugins.failedPlugins(),
    discoveryErrors: facts.plugins.discoveryErrors(),
    browserToolNames,
    disabledBrowserTools: facts.config.disabledBrowserTools.filter((n) =>
      browserToolNames.includes(n)
    ),
    reloads: facts.plugins.stats(),
    fileWatcher: idleFileWatcher(),
    audit: facts.audit,
  });
}
