/**
 * Where telemetry meets the rest of the hub: it hears of every finished call through the audit
 * log (one counter increment beside the audit entry), and counts plugins by source for
 * `hub_started` (counts only; names never leave the registry).
 */
import type { AuditLog } from "../audit/audit_log_interface.ts";
import type { Registry } from "../plugins/registry_interface.ts";
import type { PluginCounts } from "./events.ts";
import type { Telemetry } from "./telemetry.ts";

/** The audit log, telling `telemetry` of each entry it records; the same log without telemetry. */
export function withCallCounting(audit: AuditLog, telemetry: Telemetry | undefined): AuditLog {
  if (!telemetry) return audit;
  return {
    ...audit,
    record(entry) {
      audit.record(entry);
      telemetry.recordCall(entry);
    },
  };
}

export function pluginCounts(registry: Registry): PluginCounts {
  const counts = { local: 0, npm: 0 };
  for (const plugin of registry.plugins) counts[plugin.source === "local" ? "local" : "npm"]++;
  return counts;
}
