/**
 * Validation problems as agents, the audit log and the side panel see them: at most a handful of
 * entries, each one line of bounded length, then "…and N more". A hostile input with a million
 * bad values must cost a short answer, not a megabyte per value.
 */
import { boundedList } from "../../protocol/clip.ts";

/** Entries reported for one invalid call. */
export const MAX_PROBLEMS = 5;
/** Characters of one entry (a long field name or enum list is cut with "…"). */
export const MAX_PROBLEM_CHARS = 300;
/** Characters of all reported entries together. */
export const MAX_PROBLEMS_CHARS = 1_200;
/**
 * Inputs with more values than this (objects, arrays and leaves all count) are checked only up to
 * their first problem: collecting every problem of a huge input would build one error object per
 * bad value.
 */
export const FULL_CHECK_MAX_VALUES = 10_000;

/**
 * The first problems within the limits above; when some are left out (by count or by size), a
 * last entry says "…and N more". `total` is how many problems there are (default: all given).
 */
export function boundProblems(problems: readonly string[], total = problems.length): string[] {
  return boundedList(problems, {
    maxItems: MAX_PROBLEMS,
    maxItemChars: MAX_PROBLEM_CHARS,
    maxTotalChars: MAX_PROBLEMS_CHARS,
    total,
  });
}

/** Whether a JSON value holds more than `limit` values; stops counting at the limit. */
export function hasMoreValues(value: unknown, limit: number): boolean {
  const stack: unknown[] = [value];
  let seen = 0;
  while (stack.length > 0) {
    const next = stack.pop();
    if (++seen > limit) return true;
    if (typeof next !== "object" || next === null) continue;
    const children = Array.isArray(next) ? next : Object.values(next);
    if (seen + stack.length + children.length > limit) return true;
    for (const child of children) stack.push(child);
  }
  return false;
}
