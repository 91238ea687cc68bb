/**
 * What a person is told about telemetry when a hub is about to send for the first time from this
 * config dir (no installation id yet): on or off and why, what it collects, how to turn it off.
 * The terminal of `hub start` shows it, and the hub logs it once at info when it makes the id.
 */
import type { TelemetryDecision } from "./decision.ts";

export function telemetryNotice(decision: TelemetryDecision): string[] {
  if (!decision.enabled) return [`Anonymous telemetry is off (${decision.text}).`];
  return [
    "Anonymous telemetry is on: hub version, OS, runtime, plugin and call counts, never your",
    "tools' arguments, results, URLs, names or paths. Details: docs/telemetry.md.",
    'Turn it off with "hub telemetry disable" (or set DO_NOT_TRACK=1).',
  ];
}
