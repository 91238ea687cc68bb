import { assertEquals } from "../../tests/helpers/assert.ts";
import { createAuditLog } from "../audit/audit_log.ts";
import type { Registry } from "../plugins/registry_interface.ts";
import { pluginCounts, withCallCounting } from "./hub_hooks.ts";
import type { Telemetry } from "./telemetry.ts";

Deno.test("every recorded audit entry is counted, and the log still records it", () => {
  const counted: boolean[] = [];
  const telemetry = {
    recordCall: (e: { success: boolean }) => void counted.push(e.success),
  } as unknown as Telemetry;
  const audit = withCallCounting(createAuditLog(undefined), telemetry);
  const entry = { timestamp: "t", tool: "a__b", plugin: "a", success: true, durationMs: 1 };
  audit.record(entry);
  audit.record({ ...entry, success: false });
  assertEquals(counted, [true, false]);
  assertEquals(audit.query({ limit: 10 }).length, 2);
  assertEquals(audit.summary().totalInvocations, 2);
  const plain = createAuditLog(undefined);
  assertEquals(withCallCounting(plain, undefined), plain);
});

Deno.test("plugins are counted by source", () => {
  const registry = {
    plugins: [{ source: "local" }, { source: "npm" }, { source: "local" }],
  } as unknown as Registry;
  assertEquals(pluginCounts(registry), { local: 2, npm: 1 });
});
