/**
 * The telemetry events and nothing else (docs/telemetry.md lists every field). Each builder takes
 * only counts and fixed words, never a name, path, URL or text from a call, so what an event can
 * hold is decided here, by its type.
 */
import { VERSION } from "../../protocol/version.ts";
import { ERROR_CATEGORIES, type ErrorCategory } from "../../protocol/errors.ts";

export interface EventEnvelope {
  event: string;
  /** The anonymous random installation id. */
  installationId: string;
  /** When it happened, rounded down to the minute (UTC, ISO 8601). */
  time: string;
  /** hub's version. */
  version: string;
}

export interface PluginCounts {
  local: number;
  npm: number;
}

export interface HubStartedEvent extends EventEnvelope {
  event: "hub_started";
  os: string;
  arch: string;
  /** `deno <version>`. */
  runtime: string;
  mode: "dev" | "production";
  plugins: PluginCounts;
}

/** A call's outcome class: the fixed error categories, and `other` for a plugin's own one. */
export type CategoryKey = ErrorCategory | "other";
/** Whose tool was called: a plugin's, a built-in browser tool, or a hub management tool. */
export type ToolKind = "plugin" | "browser" | "hub";

export interface CallCounts {
  success: number;
  failure: number;
  /** Failures by category; only categories that occurred. */
  byCategory: Partial<Record<CategoryKey, number>>;
  /** Calls by kind of tool; only kinds that occurred. */
  byKind: Partial<Record<ToolKind, number>>;
}

export interface UsageEvent extends EventEnvelope {
  event: "usage";
  /** Minutes the counts cover (since start or the previous usage event). */
  periodMinutes: number;
  calls: CallCounts;
}

export type TelemetryEvent = HubStartedEvent | UsageEvent;

const MINUTE = 60_000;

function envelope<E extends string>(event: E, installationId: string, now: number) {
  const time = new Date(Math.floor(now / MINUTE) * MINUTE).toISOString();
  return { event, installationId, time, version: VERSION };
}

export function hubStartedEvent(
  installationId: string,
  now: number,
  info: { mode: "dev" | "production"; plugins: PluginCounts },
): HubStartedEvent {
  return {
    ...envelope("hub_started", installationId, now),
    os: Deno.build.os,
    arch: Deno.build.arch,
    runtime: `deno ${Deno.version.deno}`,
    mode: info.mode === "dev" ? "dev" : "production",
    plugins: { local: count(info.plugins.local), npm: count(info.plugins.npm) },
  };
}

export function usageEvent(
  installationId: string,
  now: number,
  periodMs: number,
  calls: CallCounts,
): UsageEvent {
  const byCategory: CallCounts["byCategory"] = {};
  for (const key of [...ERROR_CATEGORIES, "other"] as CategoryKey[]) {
    if (calls.byCategory[key]) byCategory[key] = count(calls.byCategory[key]);
  }
  const byKind: CallCounts["byKind"] = {};
  for (const key of ["plugin", "browser", "hub"] as ToolKind[]) {
    if (calls.byKind[key]) byKind[key] = count(calls.byKind[key]);
  }
  return {
    ...envelope("usage", installationId, now),
    periodMinutes: Math.max(0, Math.round(periodMs / MINUTE)),
    calls: { success: count(calls.success), failure: count(calls.failure), byCategory, byKind },
  };
}

const count = (n: number | undefined) => Number.isSafeInteger(n) && n! > 0 ? n! : 0;
