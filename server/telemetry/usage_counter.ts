/**
 * Counts tool calls by outcome, category and kind of tool, from the audit entries: the only work
 * telemetry does on the call path is a few integer increments. `take` hands the counts over and
 * starts again from zero.
 */
import type { AuditEntry } from "../../protocol/audit.ts";
import { isErrorCategory } from "../../protocol/errors.ts";
import type { CallCounts, CategoryKey, ToolKind } from "./events.ts";

export interface UsageCounter {
  record(entry: Pick<AuditEntry, "plugin" | "success" | "error">): void;
  /** The counts since the last take, then zero; undefined when no call happened. */
  take(): CallCounts | undefined;
}

export function createUsageCounter(): UsageCounter {
  let counts = empty();
  return {
    record(entry) {
      const kind: ToolKind = entry.plugin === "browser" || entry.plugin === "hub"
        ? entry.plugin
        : "plugin";
      counts.byKind[kind] = (counts.byKind[kind] ?? 0) + 1;
      if (entry.success) {
        counts.success++;
        return;
      }
      counts.failure++;
      const category = entry.error?.category;
      const key: CategoryKey = isErrorCategory(category) ? category : "other";
      counts.byCategory[key] = (counts.byCategory[key] ?? 0) + 1;
    },
    take() {
      const taken = counts;
      counts = empty();
      return taken.success + taken.failure === 0 ? undefined : taken;
    },
  };
}

function empty(): CallCounts {
  return { success: 0, failure: 0, byCategory: {}, byKind: {} };
}
