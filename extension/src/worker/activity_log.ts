/**
 * Recent tool calls for the side panel, from the hub's `tool.invocationStart` / `End` and
 * `confirmation.request`: running, waiting for a person, succeeded or failed. Newest first, at
 * most ACTIVITY_LIMIT entries.
 */
import type { ServerParams } from "../../../protocol/events.ts";
import { ACTIVITY_LIMIT, type ActivityEntry } from "../shared/panel_messages.ts";

export interface ActivityLog {
  started(params: ServerParams<"tool.invocationStart">): void;
  /** The call waits for a person's answer (`ask`). */
  waiting(params: ServerParams<"confirmation.request">): void;
  /** The person answered; the call runs (or ends with the denial). */
  answered(id: string): void;
  ended(params: ServerParams<"tool.invocationEnd">): void;
  /** The link closed: calls still open will never hear their end. */
  interrupted(): void;
  list(): ActivityEntry[];
}

export function createActivityLog(onChange: () => void, limit = ACTIVITY_LIMIT): ActivityLog {
  let entries: ActivityEntry[] = [];

  function upsert(id: string, make: () => ActivityEntry, update: (e: ActivityEntry) => void) {
    let entry = entries.find((e) => e.id === id);
    if (!entry) {
      entry = make();
      entries = [entry, ...entries].slice(0, limit);
    }
    update(entry);
    onChange();
  }

  return {
    started({ invocationId, tool, plugin, startedAt }) {
      upsert(
        invocationId,
        () => ({ id: invocationId, tool, plugin, startedAt, state: "running" }),
        () => {},
      );
    },
    waiting({ id, tool, plugin }) {
      upsert(id, () => ({ id, tool, plugin, startedAt: Date.now(), state: "waiting" }), (e) => {
        if (e.state === "running") e.state = "waiting";
      });
    },
    answered(id) {
      const entry = entries.find((e) => e.id === id);
      if (entry?.state !== "waiting") return;
      entry.state = "running";
      onChange();
    },
    ended({ invocationId, tool, plugin, success, durationMs, error }) {
      upsert(invocationId, () => ({
        id: invocationId,
        tool,
        plugin,
        startedAt: Date.now() - durationMs,
        state: "running",
      }), (e) => {
        e.state = success ? "succeeded" : "failed";
        e.durationMs = durationMs;
        if (error) e.error = { code: error.code, message: error.message };
      });
    },
    interrupted() {
      let changed = false;
      for (const e of entries) {
        if (e.state !== "running" && e.state !== "waiting") continue;
        e.state = "failed";
        e.error = { code: "EXTENSION_DISCONNECTED", message: "The link to the hub closed." };
        changed = true;
      }
      if (changed) onChange();
    },
    list: () => entries.map((e) => ({ ...e })),
  };
}
