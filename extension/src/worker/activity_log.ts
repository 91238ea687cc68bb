/**
 * Recent tool calls for the side panel: running, waiting for a person, succeeded or failed.
 * Newest first, at most ACTIVITY_LIMIT entries. A call the extension runs is known from its own
 * work: it starts with the hub's `tool.dispatch` and ends with the extension's reply. The hub
 * tells only what the extension cannot see (docs/protocol.md): `confirmation.request` for an
 * `ask` call, `tool.invocationStart` for a call the hub runs itself, and `tool.invocationEnd`
 * for an end that is not the extension's reply (a refusal, a timeout, a cancelled call); that end
 * always wins. Each change costs a map update and no copies; `list()` copies for the panel.
 *
 * A reply SITE_ASK is no end: the hub asks the person about the site and dispatches again (or
 * ends the call), so the call shows as waiting for that site meanwhile.
 */
import type { DispatchResult, ServerParams } from "../../../protocol/events.ts";
import { ACTIVITY_LIMIT, type ActivityEntry } from "../shared/panel_messages.ts";
import { MAX_SITE_PATTERN_CHARS } from "../../../protocol/site_permissions.ts";

/** The most characters of an error message kept for the panel. */
export const MAX_ACTIVITY_ERROR_CHARS = 4_000;

export interface CallStart {
  id: string;
  tool: string;
  plugin: string;
  startedAt: number;
}

export interface ActivityLog {
  /** A call started: its `tool.dispatch` arrived, or the hub's `tool.invocationStart`. */
  started(call: CallStart): void;
  /** The call waits for a person's answer (`ask`, or a site: `site` set). */
  waiting(params: ServerParams<"confirmation.request">): void;
  /** The person answered; the call runs (or ends with the denial). */
  answered(id: string): void;
  /**
   * The extension answered the call's dispatch; ignored once the call ended, unless `replace`
   * (the reply was replaced before it went out: a result too large to send).
   */
  replied(id: string, result: DispatchResult, options?: { replace?: boolean; now?: number }): void;
  /** The hub says how the call ended. */
  ended(params: ServerParams<"tool.invocationEnd">): void;
  /** The link closed: calls still open will never hear their end. */
  interrupted(): void;
  list(): ActivityEntry[];
}

const open = (e: ActivityEntry) => e.state === "running" || e.state === "waiting";

/** The site a SITE_ASK reply waits for (its `details.site`), or undefined for any other reply. */
function askedSite(result: DispatchResult): string | undefined {
  if (result.ok || result.error.code !== "SITE_ASK") return undefined;
  const site = (result.error.details as { site?: unknown } | undefined)?.site;
  return typeof site === "string" ? site.slice(0, MAX_SITE_PATTERN_CHARS) : "";
}

const shortError = ({ code, message }: { code: string; message: string }) => ({
  code,
  message: message.length > MAX_ACTIVITY_ERROR_CHARS
    ? `${message.slice(0, MAX_ACTIVITY_ERROR_CHARS)}…`
    : message,
});

/** The entry runs (again) or has ended: it no longer waits for a site. */
function settled(entry: ActivityEntry, state: ActivityEntry["state"]) {
  entry.state = state;
  delete entry.site;
}

/** A SITE_ASK reply: the call waits again, for the person to answer about `site` ("" = unnamed). */
function waitForSite(entry: ActivityEntry, site: string) {
  entry.state = "waiting";
  if (site) entry.site = site;
}

/** Any other reply ends the entry (its duration kept if the hub already gave one). */
function replyEnded(entry: ActivityEntry, result: DispatchResult, now: number) {
  settled(entry, result.ok ? "succeeded" : "failed");
  entry.durationMs ??= Math.max(0, now - entry.startedAt);
  if (!result.ok) entry.error = shortError(result.error);
}

/** The link closed: every open entry failed. Whether any changed. */
function interruptOpen(entries: Iterable<ActivityEntry>): boolean {
  let changed = false;
  for (const e of entries) {
    if (!open(e)) continue;
    settled(e, "failed");
    e.error = { code: "EXTENSION_DISCONNECTED", message: "The link to the hub closed." };
    changed = true;
  }
  return changed;
}

export function createActivityLog(onChange: () => void, limit = ACTIVITY_LIMIT): ActivityLog {
  /** Oldest first (insertion order), so the oldest is the one to drop. */
  const entries = new Map<string, ActivityEntry>();

  function add(entry: ActivityEntry): ActivityEntry {
    entries.set(entry.id, entry);
    if (entries.size > limit) entries.delete(entries.keys().next().value!);
    return entry;
  }

  return {
    started({ id, tool, plugin, startedAt }) {
      const entry = entries.get(id);
      if (!entry) add({ id, tool, plugin, startedAt, state: "running" });
      else if (entry.state === "waiting") settled(entry, "running");
      else return;
      onChange();
    },
    waiting({ id, tool, plugin, site }) {
      const entry = entries.get(id) ??
        add({ id, tool, plugin, startedAt: Date.now(), state: "waiting" });
      if (!open(entry)) return;
      entry.state = "waiting";
      if (site !== undefined) entry.site = site;
      else delete entry.site;
      onChange();
    },
    answered(id) {
      const entry = entries.get(id);
      if (entry?.state !== "waiting") return;
      settled(entry, "running");
      onChange();
    },
    replied(id, result, { replace = false, now = Date.now() } = {}) {
      const entry = entries.get(id);
      if (!entry || !(replace || open(entry))) return;
      const site = askedSite(result);
      if (site !== undefined && !replace) waitForSite(entry, site);
      else replyEnded(entry, result, now);
      onChange();
    },
    ended({ invocationId: id, tool, plugin, success, durationMs, error }) {
      const entry = entries.get(id) ??
        add({ id, tool, plugin, startedAt: Date.now() - durationMs, state: "running" });
      settled(entry, success ? "succeeded" : "failed");
      entry.durationMs = durationMs;
      if (error) entry.error = shortError(error);
      else delete entry.error;
      onChange();
    },
    interrupted() {
      if (interruptOpen(entries.values())) onChange();
    },
    list: () => [...entries.values()].reverse().map((e) => ({ ...e })),
  };
}
