/**
 * Whether telemetry is on, and why: one pure function of the config's `telemetry` field and the
 * environment, used by the running hub (at every send, so an edit of config.json counts at once)
 * and by `hub telemetry status`.
 *
 * In order: `telemetry: false` in config.json turns it off; `HUB_TELEMETRY_DISABLED=1` turns it
 * off; when `HUB_TELEMETRY_DISABLED` is not set, `DO_NOT_TRACK=1` turns it off; otherwise it is
 * on. A variable counts as "1" when it is `1` or `true` (any case), and as not set when it is
 * missing or empty, so `HUB_TELEMETRY_DISABLED=0` is a way to keep telemetry on for hub alone in
 * a shell that exports `DO_NOT_TRACK=1` for every tool.
 */

export type TelemetryReason =
  | "config"
  | "HUB_TELEMETRY_DISABLED"
  | "DO_NOT_TRACK"
  | "HUB_TELEMETRY_DISABLED=0"
  | "default";

export interface TelemetryDecision {
  enabled: boolean;
  reason: TelemetryReason;
  /** The reason as a person reads it ("DO_NOT_TRACK=1 is set"). */
  text: string;
}

/** The environment variables the decision reads. */
export interface TelemetryEnv {
  HUB_TELEMETRY_DISABLED?: string;
  DO_NOT_TRACK?: string;
}

/** Reads the decision's variables from `get` (e.g. `(n) => Deno.env.get(n)`). */
export function telemetryEnv(get: (name: string) => string | undefined): TelemetryEnv {
  return {
    HUB_TELEMETRY_DISABLED: get("HUB_TELEMETRY_DISABLED"),
    DO_NOT_TRACK: get("DO_NOT_TRACK"),
  };
}

/** Whether an environment value says yes: `1` or `true`, in any case, spaces ignored. */
export function envFlag(value: string | undefined): boolean {
  const v = value?.trim().toLowerCase();
  return v === "1" || v === "true";
}

const isSet = (value: string | undefined) => value !== undefined && value.trim() !== "";

export function telemetryDecision(configTelemetry: boolean, env: TelemetryEnv): TelemetryDecision {
  if (!configTelemetry) {
    return off("config", "telemetry is false in config.json");
  }
  const disabled = env.HUB_TELEMETRY_DISABLED;
  if (envFlag(disabled)) return off("HUB_TELEMETRY_DISABLED", "HUB_TELEMETRY_DISABLED=1 is set");
  if (isSet(disabled)) {
    return {
      enabled: true,
      reason: "HUB_TELEMETRY_DISABLED=0",
      text: `HUB_TELEMETRY_DISABLED is set to "${disabled!.trim().slice(0, 20)}" ` +
        "(it decides instead of DO_NOT_TRACK)",
    };
  }
  if (envFlag(env.DO_NOT_TRACK)) return off("DO_NOT_TRACK", "DO_NOT_TRACK=1 is set");
  return { enabled: true, reason: "default", text: "on by default" };
}

function off(reason: TelemetryReason, text: string): TelemetryDecision {
  return { enabled: false, reason, text };
}
