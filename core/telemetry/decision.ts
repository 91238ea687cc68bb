/**
 * Whether telemetry is on, and why: one pure function of the config's `telemetry` field and the
 * environment, used by the running hub (at every send, so an edit of config.json counts at once)
 * and by `hub telemetry status`.
 *
 * In order: `telemetry: false` in config.json turns it off; then `HUB_TELEMETRY_DISABLED` decides
 * when it is set; then `DO_NOT_TRACK`; otherwise it is on. A variable that is missing or empty
 * (spaces only) is not set. A set variable turns telemetry off unless it is `0` or `false` (any
 * case): a value meant as "off" (`yes`, `on`, `y`) must never leave telemetry on. So
 * `HUB_TELEMETRY_DISABLED=0` keeps telemetry on for hub alone in a shell that exports
 * `DO_NOT_TRACK=1` for every tool, and `DO_NOT_TRACK=0` turns nothing off.
 */
import { clipForMessage } from "../../protocol/clip.ts";

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
  /** Set when a variable decided with a value other than 1, true, 0 or false: how it was read. */
  note?: string;
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

/** How an opt-out variable reads: not set (missing or empty), "no" (0 or false), or "yes" (any other value). */
export type OptOutValue = "unset" | "no" | "yes";

export function readOptOut(value: string | undefined): OptOutValue {
  const v = value?.trim().toLowerCase() ?? "";
  if (v === "") return "unset";
  return v === "0" || v === "false" ? "no" : "yes";
}

export function telemetryDecision(configTelemetry: boolean, env: TelemetryEnv): TelemetryDecision {
  if (!configTelemetry) {
    return { enabled: false, reason: "config", text: "telemetry is false in config.json" };
  }
  const disabled = env.HUB_TELEMETRY_DISABLED;
  switch (readOptOut(disabled)) {
    case "yes":
      return off("HUB_TELEMETRY_DISABLED", disabled!);
    case "no":
      return {
        enabled: true,
        reason: "HUB_TELEMETRY_DISABLED=0",
        text: `HUB_TELEMETRY_DISABLED=${shown(disabled!)} is set ` +
          "(it decides instead of DO_NOT_TRACK)",
      };
  }
  if (readOptOut(env.DO_NOT_TRACK) === "yes") return off("DO_NOT_TRACK", env.DO_NOT_TRACK!);
  return { enabled: true, reason: "default", text: "on by default" };
}

/** Off because `name` is set to `value`; a value other than 1 or true gets a note saying why. */
function off(name: "HUB_TELEMETRY_DISABLED" | "DO_NOT_TRACK", value: string): TelemetryDecision {
  const decision: TelemetryDecision = {
    enabled: false,
    reason: name,
    text: `${name}=${shown(value)} is set`,
  };
  if (!envFlag(value)) {
    decision.note = `${name}=${shown(value)} is read as "off": any value other than 0 or false ` +
      "(or an empty one) turns telemetry off.";
  }
  return decision;
}

const shown = (value: string) => {
  const v = value.trim();
  return /^[\w.-]{1,20}$/.test(v) ? v : JSON.stringify(clipForMessage(v, 20));
};
