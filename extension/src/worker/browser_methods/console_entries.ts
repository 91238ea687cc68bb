/** The entries browser_get_console_logs returns, and how DevTools' message types map to levels. */
import type { ConsoleLevel } from "../../../../protocol/browser_methods/page.ts";

/** Where an entry came from, when it was not a console call. */
export type ConsoleSource = "uncaught" | "unhandledrejection";

export interface ConsoleEntry {
  /** Milliseconds since the epoch. */
  time: number;
  level: ConsoleLevel;
  text: string;
  source?: ConsoleSource;
}

/** `Runtime.consoleAPICalled` types that are recorded (console.debug/log/info/warn/error). */
export const LEVEL_OF_TYPE: Record<string, ConsoleLevel | undefined> = {
  debug: "debug",
  log: "log",
  info: "info",
  warning: "warn",
  error: "error",
};
