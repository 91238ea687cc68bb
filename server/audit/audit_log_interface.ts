/**
 * What the hub's parts need of the audit log: record an entry, read the recent ones, and the
 * counters for /health. Declared apart from the implementation (./audit_log.ts: the ring, audit.log,
 * the minute buckets), so calls/, telemetry/, health.ts and the routes depend on this shape only.
 */
import type { AuditEntry } from "../../protocol/audit.ts";
import type { AuditSummary } from "../../protocol/health.ts";

export interface AuditQuery {
  limit: number;
  plugin?: string;
  tool?: string;
  success?: boolean;
}

export interface AuditLog {
  record(entry: AuditEntry): void;
  /** Newest first. */
  query(query: AuditQuery): AuditEntry[];
  summary(): AuditSummary;
  /** Closes `audit.log` (entries are on disk as they are recorded; a late one is still written). */
  close(): void;
}
