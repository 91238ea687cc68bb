/**
 * `hub telemetry [status|enable|disable]`: whether anonymous telemetry is on and why, the
 * installation id, and the switch in config.json (written through the config store, under its
 * lock). A running hub reads the config before every send, so the switch needs no restart.
 * Environment variables can still turn telemetry off over the config; the commands say so.
 */
import { cliConfigStore, cliPaths } from "../../core/client/client_context.ts";
import { UserError } from "../../core/cli/user_error.ts";
import { clipForMessage } from "../../protocol/clip.ts";
import {
  type TelemetryDecision,
  telemetryDecision,
  telemetryEnv,
} from "../../core/telemetry/decision.ts";
import { readInstallationId, telemetryIdPath } from "../../core/telemetry/installation_id.ts";
import { TELEMETRY_ENDPOINT_ENV } from "../../core/telemetry/endpoint.ts";
import { telemetrySettingsFromEnv } from "../../core/telemetry/settings.ts";

export const TELEMETRY_ACTIONS = ["status", "enable", "disable"] as const;

const OFF_HINT = 'Turn it off with "hub telemetry disable" (or DO_NOT_TRACK=1).';

export async function telemetryCommand(action: string | undefined): Promise<void> {
  const chosen = action ?? "status";
  if (chosen === "status") return await telemetryStatus();
  if (chosen === "enable" || chosen === "disable") return await setTelemetry(chosen === "enable");
  throw new UserError(
    `Unknown telemetry action "${clipForMessage(chosen)}". ` +
      `Use one of: ${TELEMETRY_ACTIONS.join(", ")} (status is the default).`,
  );
}

async function telemetryStatus(): Promise<void> {
  const paths = cliPaths();
  const config = await cliConfigStore(paths).load();
  const settings = telemetrySettingsFromEnv((name) => Deno.env.get(name));
  const decision = telemetryDecision(config.telemetry, settings.env);
  const id = await readInstallationId(paths.dir);
  const lines = [
    `Telemetry: ${decision.enabled ? "enabled" : "disabled"} (${decision.text})`,
    ...(decision.note ? [`Note: ${decision.note}`] : []),
    `Installation id: ${
      id ?? "none yet (made when a hub first sends or, in debug mode, prints an event)"
    }`,
    `  (random, stored in ${telemetryIdPath(paths.dir)}; not derived from this machine or you)`,
  ];
  if ("refused" in settings.endpoint) lines.push(settings.endpoint.refused);
  else if (Deno.env.get(TELEMETRY_ENDPOINT_ENV)) {
    lines.push(`Endpoint: ${settings.endpoint.endpoint} (from ${TELEMETRY_ENDPOINT_ENV})`);
  }
  if (settings.debug) {
    lines.push("HUB_TELEMETRY_DEBUG=1: a hub started here prints events to stderr, sends nothing.");
  }
  lines.push(
    decision.enabled
      ? `Sent: the hub version, OS, runtime, plugin counts and call counts; never arguments, ` +
        `results, URLs, names or paths. ${OFF_HINT}`
      : 'Nothing is sent. "hub telemetry enable" turns it on again (unless the environment says no).',
  );
  console.log(lines.join("\n"));
}

async function setTelemetry(enabled: boolean): Promise<void> {
  const paths = cliPaths();
  await cliConfigStore(paths).update((config) => {
    config.telemetry = enabled;
  });
  const decision = telemetryDecision(enabled, telemetryEnv((name) => Deno.env.get(name)));
  console.log(
    enabled
      ? `Telemetry enabled (telemetry: true in ${paths.config}).`
      : `Telemetry disabled (telemetry: false in ${paths.config}). A running hub stops ` +
        "sending at once; no restart needed.",
  );
  if (enabled && !decision.enabled) console.log(overrideNote(decision));
}

/** Why the environment keeps telemetry off although the config turns it on. */
function overrideNote(decision: TelemetryDecision): string {
  return `Note: telemetry stays off for hubs started from this shell: ${decision.text}. ` +
    `Unset ${decision.reason} to let the config decide.` +
    (decision.note ? ` ${decision.note}` : "");
}
