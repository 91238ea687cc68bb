/**
 * The result of `hub doctor`: one line per check (pass, warning, error or skipped), each warning or
 * error with the one command or click that fixes it; as text for people and as JSON for scripts.
 * An error is a fatal check (exit 1); warnings and skips alone leave the exit code at 0.
 */
import { clip } from "../../protocol/clip.ts";

export type CheckStatus = "pass" | "warn" | "error" | "skip";

export interface Check {
  id: string;
  title: string;
  status: CheckStatus;
  message: string;
  /** The one command or click that fixes a warning or an error. */
  fix?: string;
}

export interface DoctorReport {
  version: string;
  /** False when any check is an error (a fatal failure). */
  ok: boolean;
  checks: Check[];
}

/** What a check line may hold: lines per message, characters per line and per fix. */
export const MAX_MESSAGE_LINES = 24;
export const MAX_LINE_CHARS = 300;
const MAX_FIX_CHARS = 400;

/** The rule written in `hub doctor --help` and the docs. */
export const FATAL_RULE = [
  "Exit code 1 when a fatal check fails: Deno older than 2, config.json broken, the secret",
  "missing or invalid, the hub not running (or another program on its port), the extension not",
  "installed, its version not the CLI's, or it not connected. Warnings alone exit 0: no browser",
  "found, auth.json readable by others, MCP client configs missing or stale, plugins without",
  "built files or failing to load, a running hub of another version, browser tools and the",
  "default site permission both auto.",
].join("\n");

export const pass = (id: string, title: string, message: string): Check => ({
  id,
  title,
  status: "pass",
  message,
});

export const skip = (id: string, title: string, message: string): Check => ({
  id,
  title,
  status: "skip",
  message,
});

export function problem(
  status: "warn" | "error",
  id: string,
  title: string,
  message: string,
  fix: string,
): Check {
  return { id, title, status, message, fix };
}

/** At most `max` lines: the first `max - 1`, then "…and N more<unit>". */
export function boundLines(lines: string[], max: number, unit = ""): string[] {
  if (lines.length <= max) return lines;
  return [...lines.slice(0, max - 1), `…and ${lines.length - max + 1} more${unit}`];
}

/** Keeps a message within MAX_MESSAGE_LINES lines of MAX_LINE_CHARS characters. */
export function boundMessage(message: string): string {
  const lines = message.split("\n").map((line) => clip(line, MAX_LINE_CHARS));
  return boundLines(lines, MAX_MESSAGE_LINES, " lines").join("\n");
}

export function buildReport(version: string, checks: Check[]): DoctorReport {
  const bounded = checks.map((c): Check => ({
    ...c,
    message: boundMessage(c.message),
    ...(c.fix === undefined ? {} : { fix: clip(c.fix, MAX_FIX_CHARS) }),
  }));
  return { version, ok: !bounded.some((c) => c.status === "error"), checks: bounded };
}

const MARKS: Record<CheckStatus, string> = {
  pass: "[ok]  ",
  warn: "[warn]",
  error: "[FAIL]",
  skip: "[skip]",
};

/** The checklist: `[ok]   title: message`, continuation lines indented, then `fix:`. */
export function formatReport(report: DoctorReport): string {
  const lines = [`hub doctor ${report.version}`];
  for (const check of report.checks) {
    const [first, ...rest] = check.message.split("\n");
    lines.push(`${MARKS[check.status]} ${check.title}: ${first}`);
    for (const line of rest) lines.push(`         ${line}`);
    if (check.fix) lines.push(`         fix: ${check.fix}`);
  }
  const errors = report.checks.filter((c) => c.status === "error").length;
  const warnings = report.checks.filter((c) => c.status === "warn").length;
  lines.push(
    errors > 0
      ? `${errors} fatal problem${errors === 1 ? "" : "s"}, ${warnings} warning${
        warnings === 1 ? "" : "s"
      }.`
      : warnings > 0
      ? `No fatal problem; ${warnings} warning${warnings === 1 ? "" : "s"}.`
      : "Everything looks good.",
  );
  return lines.join("\n");
}
