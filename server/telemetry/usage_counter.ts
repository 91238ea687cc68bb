/**
 * Counts tool calls by outcome, category and kind of tool, from the audit entries: the only work
 * telemetry does on the call path is a few integer increments. `take` hands the counts over and
 * starts again from zero.
 */
import type { AuditEntry } from "../../protocol/audit.ts";
import { isErrorCategory } from "../../protocol/errors.ts";
import { BROWSER_GROUP, MANAGEMENT_GROUP } from "../../protocol/call_contract.ts";
import type { CallCounts, CategoryKey, ToolKind } from "./events.ts";

export interface UsageCounter {
  record(entry: Pick<AuditEntry, "plugin" | "success" | "error">): void;
  /** Adds counts taken from another counter. */
  add(calls: CallCounts): void;
  /** The counts since the last take, then zero; undefined when no call happened. */
  take(): CallCounts | undefined;
}

export function createUsageCounter(): UsageCounter {
  let counts = empty();
  return {
    record(entry) {
      const kind: ToolKind = entry.plugin === BROWSER_GROUP
        ? "browser"
        : entry.plugin === MANAGEMENT_GROUP
        ? "hub"
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
    add(calls) {
      counts.success += calls.success;
      counts.failure += calls.failure;
      addInto(counts.byCategory, calls.byCategory);
      addInto(counts.byKind, calls.byKind);
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

function addInto<K extends string>(
  into: Partial<Record<K, number>>,
  from: Partial<Record<K, number>>,
) {
  for (const [key, n] of Object.entries(from) as [K, number][]) into[key] = (into[key] ?? 0) + n;
}
