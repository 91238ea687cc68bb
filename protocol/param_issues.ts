/**
 * Zod issues as one line a developer can act on: `params.tabs.0.url: expected string`, for the
 * JSON-RPC engine's answer to a frame whose params do not match its method (protocol/events.ts).
 */
import type * as z from "zod";
import { boundedList } from "./clip.ts";

/** Issues named in one message; a frame with thousands of bad fields gets a short answer. */
const MAX_ISSUES = 5;
/** Characters of one issue (a long path or message is cut with "…"). */
const MAX_ISSUE_CHARS = 300;

export function describeIssues(error: z.ZodError): string {
  const lines = error.issues.slice(0, MAX_ISSUES).map((issue) =>
    `${["params", ...issue.path.map(String)].join(".")}: ${issue.message}`
  );
  return boundedList(lines, {
    maxItems: MAX_ISSUES,
    maxItemChars: MAX_ISSUE_CHARS,
    total: error.issues.length,
  }).join("; ");
}
