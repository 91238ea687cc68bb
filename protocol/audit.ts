/** An audit log entry (docs/http.md, `GET /audit`), as `/audit`, `audit.log` and `hub audit` carry it. */
export interface AuditEntry {
  /** ISO 8601 UTC. */
  timestamp: string;
  /** Prefixed tool name (`<plugin>__<tool>`) or a built-in name. */
  tool: string;
  /** Plugin name; `browser` for browser tools, `hub` for plugin-management tools. */
  plugin: string;
  success: boolean;
  durationMs: number;
  /**
   * The site a browser or plugin tool touched: the origin of the page it read or acted on, or
   * was refused on (`https://app.example.com`); the site's key (`app.example.com`) only for a
   * refusal from an extension that names no origin. Absent when no page was involved.
   */
  site?: string;
  /** Only on failures. */
  error?: { code: string; message: string; category?: string };
}

/** In-memory entries kept for `/audit`. */
export const AUDIT_RING_SIZE = 500;
/** `audit.log` rotates to `audit.log.1` at this size. */
export const AUDIT_FILE_MAX_BYTES = 10 * 1024 * 1024;
