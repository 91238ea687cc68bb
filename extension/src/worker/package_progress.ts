/**
 * What running package operations are doing, from the hub's `plugin.progress`: the latest message
 * per operation and package, newest first, at most PROGRESS_LIMIT of them. The side panel shows a
 * running operation's latest line (an install started from the CLI too) and the last one of a
 * finished operation.
 */
import type { PackageProgress } from "../../../protocol/packages.ts";
import { PROGRESS_LIMIT, type ProgressEntry } from "../shared/panel_messages.ts";

export interface ProgressLog {
  add(progress: PackageProgress): void;
  /** The link closed: no running operation will report again. */
  clear(): void;
  list(): ProgressEntry[];
}

const keyOf = (p: PackageProgress) => `${p.operation}\u0000${p.name ?? ""}`;

export function createProgressLog(
  onChange: () => void,
  now: () => number = Date.now,
  limit = PROGRESS_LIMIT,
): ProgressLog {
  let entries: ProgressEntry[] = [];
  return {
    add(progress) {
      const key = keyOf(progress);
      const entry: ProgressEntry = { ...progress, receivedAt: now() };
      entries = [entry, ...entries.filter((e) => keyOf(e) !== key)].slice(0, limit);
      onChange();
    },
    clear() {
      if (entries.length === 0) return;
      entries = [];
      onChange();
    },
    list: () => entries,
  };
}
