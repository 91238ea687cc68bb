/**
 * The audit log of a running hub: the last 500 entries in memory for `/audit`, every entry
 * appended to `audit.log`, and the counters of `auditSummary` in `/health` (since start, and for
 * the last 24 hours in one-minute buckets). Every entry is cut to a bounded size before it is
 * kept or written (it never holds arguments), so the ring stays under a fixed number of bytes and
 * a rotation of `audit.log` always keeps earlier history.
 */
import { AUDIT_RING_SIZE, type AuditEntry } from "../../protocol/audit.ts";
import { clip, clipForMessage } from "../../protocol/clip.ts";
import { MAX_SITE_PATTERN_CHARS } from "../../protocol/site_permissions.ts";
import type { AuditFile } from "./audit_file.ts";
import type { AuditLog, AuditQuery } from "./audit_log_interface.ts";

/**
 * Characters kept of an entry's error message: room for a page's message at the cap of the hub's
 * dispatches (calls/dispatches.ts: 4,000 characters and the note that says it was cut), so the
 * entry says what the agent saw.
 */
export const AUDIT_MESSAGE_MAX_CHARS = 4_200;
/** Characters kept of a tool or plugin name, an error code or category. */
export const AUDIT_NAME_MAX_CHARS = 200;
/**
 * An entry's site is kept when it is at most this many characters that JSON writes as
 * themselves (an origin or a site's key is ASCII: the URL parser writes hosts in punycode); else
 * it is left out.
 */
export const AUDIT_SITE_MAX_CHARS = MAX_SITE_PATTERN_CHARS;
const SITE_TEXT = new RegExp(`^[!#-\\[\\]-~]{1,${AUDIT_SITE_MAX_CHARS}}$`);
/**
 * No entry is larger than this as JSON: the limits above at the worst JSON escaping (6 bytes a
 * character; the site needs none) plus the fixed fields. With 500 entries the in-memory ring
 * stays under 16 MB.
 */
export const AUDIT_ENTRY_MAX_BYTES = 32 * 1024;

/** The entry with every text field cut to its limit. */
export function boundAuditEntry(entry: AuditEntry): AuditEntry {
  const name = (text: string) => clip(text, AUDIT_NAME_MAX_CHARS);
  const bounded: AuditEntry = {
    timestamp: name(entry.timestamp),
    tool: name(entry.tool),
    plugin: name(entry.plugin),
    success: entry.success,
    durationMs: entry.durationMs,
  };
  if (entry.site !== undefined && SITE_TEXT.test(entry.site)) bounded.site = entry.site;
  if (entry.error) {
    bounded.error = {
      code: name(entry.error.code),
      message: clip(entry.error.message, AUDIT_MESSAGE_MAX_CHARS),
      ...(entry.error.category === undefined ? {} : { category: name(entry.error.category) }),
    };
  }
  return bounded;
}

const MINUTE = 60_000;
const DAY_MINUTES = 24 * 60;

export function createAuditLog(file: AuditFile | undefined, clock: () => number = Date.now) {
  const ring: AuditEntry[] = [];
  let next = 0;
  const totals = { total: 0, success: 0, durationMs: 0 };
  const buckets = new Map<number, { total: number; success: number }>();

  function countMinute(success: boolean) {
    const minute = Math.floor(clock() / MINUTE);
    const bucket = buckets.get(minute) ?? { total: 0, success: 0 };
    bucket.total++;
    if (success) bucket.success++;
    buckets.set(minute, bucket);
    if (buckets.size > DAY_MINUTES + 1) {
      for (const key of buckets.keys()) if (key <= minute - DAY_MINUTES) buckets.delete(key);
    }
  }

  const log: AuditLog = {
    record(original) {
      const entry = boundAuditEntry(original);
      if (ring.length < AUDIT_RING_SIZE) ring.push(entry);
      else ring[next] = entry;
      next = (next + 1) % AUDIT_RING_SIZE;
      totals.total++;
      if (entry.success) totals.success++;
      totals.durationMs += entry.durationMs;
      countMinute(entry.success);
      file?.append(entry);
    },
    query({ limit, plugin, tool, success }) {
      const out: AuditEntry[] = [];
      for (let i = 1; i <= ring.length && out.length < limit; i++) {
        const entry = ring[(next - i + ring.length) % ring.length];
        if (plugin !== undefined && entry.plugin !== plugin) continue;
        if (tool !== undefined && entry.tool !== tool) continue;
        if (success !== undefined && entry.success !== success) continue;
        out.push(entry);
      }
      return out;
    },
    summary() {
      const since = Math.floor(clock() / MINUTE) - DAY_MINUTES;
      let total = 0;
      let success = 0;
      for (const [minute, b] of buckets) {
        if (minute <= since) continue;
        total += b.total;
        success += b.success;
      }
      return {
        totalInvocations: totals.total,
        successCount: totals.success,
        failureCount: totals.total - totals.success,
        last24h: { total, success, failure: total - success },
        avgDurationMs: totals.total === 0
          ? 0
          : Math.round((totals.durationMs / totals.total) * 10) / 10,
      };
    },
    close: () => file?.close(),
  };
  return log;
}

/** Parses the query string of `GET /audit`; throws a message naming the bad parameter. */
export function parseAuditQuery(params: URLSearchParams): AuditQuery {
  const rawLimit = params.get("limit");
  let limit = 50;
  if (rawLimit !== null) {
    limit = Number(rawLimit);
    if (!/^\d+$/.test(rawLimit) || limit < 1 || limit > AUDIT_RING_SIZE) {
      throw new Error(
        `limit must be a whole number from 1 to ${AUDIT_RING_SIZE} (got "${
          clipForMessage(rawLimit)
        }").`,
      );
    }
  }
  const rawSuccess = params.get("success");
  if (rawSuccess !== null && rawSuccess !== "true" && rawSuccess !== "false") {
    throw new Error(`success must be "true" or "false" (got "${clipForMessage(rawSuccess)}").`);
  }
  return {
    limit,
    plugin: params.get("plugin") ?? undefined,
    tool: params.get("tool") ?? undefined,
    success: rawSuccess === null ? undefined : rawSuccess === "true",
  };
}
