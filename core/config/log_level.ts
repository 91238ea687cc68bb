/** The levels of `HUB_LOG_LEVEL`, checked by `hub start` before it loads the server. */
import { UserError } from "../cli/user_error.ts";
import { LOG_LEVELS as ENTRY_LEVELS } from "../../protocol/call_contract.ts";

/** The call contract's log levels, and "silent" (no log at all). */
export const LOG_LEVELS = [...ENTRY_LEVELS, "silent"] as const;
export type LogLevel = typeof LOG_LEVELS[number];

/** Parses `HUB_LOG_LEVEL`; throws with the valid choices when the value is unknown. */
export function parseLogLevel(value: string | undefined): LogLevel {
  if (value === undefined || value === "") return "info";
  const level = value.toLowerCase();
  if ((LOG_LEVELS as readonly string[]).includes(level)) return level as LogLevel;
  throw new UserError(
    `HUB_LOG_LEVEL="${value}" is not a log level. Use one of: ${LOG_LEVELS.join(", ")}.`,
  );
}
