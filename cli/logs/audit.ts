/**
 * `hub audit [--limit 20] [--plugin] [--tool] [--since 10m] [--json] [--file]`: recent tool calls,
 * from the running hub (`GET /audit`, the last 500 since it started) or, with `--file`, from
 * `audit.log` and `audit.log.1`, which survive restarts.
 */
import { AUDIT_RING_SIZE, type AuditEntry } from "../../protocol/audit.ts";
import { UserError } from "../../core/cli/user_error.ts";
import { cliClient, cliPaths, warn } from "../../core/client/client_context.ts";
import { visibleText } from "../../protocol/visible_text.ts";
import { printJson } from "../json_output.ts";
import { clip } from "../../protocol/clip.ts";
import { readLogTail, unusableLogError } from "./logs.ts";

export interface AuditOptions {
  port?: string;
  limit?: string;
  plugin?: string;
  tool?: string;
  since?: string;
  json?: boolean;
  file?: boolean;
}

const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** `10m` → milliseconds; throws a message with examples when malformed. */
export function parseSince(value: string): number {
  const match = /^(\d+)([smhd])$/.exec(value.trim());
  if (!match) {
    throw new UserError(
      `--since "${value}" is not a duration: use a number and s, m, h or d (30s, 10m, 2h, 7d).`,
    );
  }
  return Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
}

function parseLimit(value: string | undefined, file: boolean): number {
  const limit = Number(value ?? "20");
  if (!/^\d+$/.test(value ?? "20") || limit < 1) {
    throw new UserError(`--limit must be a whole number of at least 1 (got "${value}").`);
  }
  if (!file && limit > AUDIT_RING_SIZE) {
    throw new UserError(
      `--limit ${limit}: the running hub keeps the last ${AUDIT_RING_SIZE} calls; ` +
        "use --file to read more from audit.log.",
    );
  }
  return limit;
}

/** Reads audit.log.1 then audit.log; newest first. Unreadable lines are counted, not fatal. */
export async function readAuditFiles(path: string): Promise<AuditEntry[]> {
  const entries: AuditEntry[] = [];
  let bad = 0;
  for (const file of [`${path}.1`, path]) {
    let text: string;
    try {
      // Bounded: the file's end (it rotates at 10 MB); a FIFO or /dev/zero there is never read.
      text = (await readLogTail(file)).text;
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) continue;
      const unusable = unusableLogError("Cannot read the audit log", file, error);
      if (unusable) throw unusable;
      throw new UserError(`Cannot read ${file}: ${clip((error as Error).message, 200)}`);
    }
    for (const line of text.split("\n")) {
      if (line.trim() === "") continue;
      try {
        entries.push(JSON.parse(line));
      } catch {
        bad++;
      }
    }
  }
  if (bad > 0) warn(`skipped ${bad} unreadable line(s) in ${path}`);
  return entries.reverse();
}

async function fromHub(options: AuditOptions, limit: number): Promise<AuditEntry[]> {
  const client = await cliClient(options.port);
  const query = new URLSearchParams({ limit: String(options.since ? AUDIT_RING_SIZE : limit) });
  if (options.plugin) query.set("plugin", options.plugin);
  if (options.tool) query.set("tool", options.tool);
  const res = await client.request<AuditEntry[]>("GET", `/audit?${query}`);
  if (!res) {
    throw new UserError(
      `hub is not running on port ${client.port}. Start it with "hub start", or read the ` +
        'log file with "hub audit --file".',
    );
  }
  if (res.status !== 200) {
    const e = (res.body as unknown as { error?: { message?: string } })?.error;
    throw new UserError(`GET /audit failed (HTTP ${res.status}): ${e?.message ?? res.body}`);
  }
  return res.body;
}

export async function auditCommand(options: AuditOptions): Promise<void> {
  const limit = parseLimit(options.limit, options.file === true);
  const since = options.since === undefined ? undefined : Date.now() - parseSince(options.since);
  let entries = options.file
    ? await readAuditFiles(cliPaths().auditLog)
    : await fromHub(options, limit);
  entries = entries.filter((e) =>
    (options.plugin === undefined || e.plugin === options.plugin) &&
    (options.tool === undefined || e.tool === options.tool) &&
    (since === undefined || Date.parse(e.timestamp) >= since)
  ).slice(0, limit);
  if (options.json) {
    printJson(entries);
    return;
  }
  if (entries.length === 0) {
    console.log("No tool calls recorded" + (options.file ? " in the audit log." : " since start."));
    return;
  }
  console.log(entries.map(formatEntry).join("\n"));
}

/**
 * One line per call: the tool, the site it touched (when it touched one) and its error; the tool
 * and the error (a plugin's words) escaped, so nothing hides.
 */
export function formatEntry(e: AuditEntry): string {
  const when = visibleText(e.timestamp.replace("T", " ").replace(/\.\d+Z$/, "Z"));
  const status = e.success ? "ok  " : "FAIL";
  const site = typeof e.site === "string" ? `  on ${visibleText(e.site)}` : "";
  const tail = e.error ? `  ${visibleText(e.error.code)}: ${visibleText(e.error.message)}` : "";
  return `${when}  ${status}  ${`${e.durationMs}ms`.padStart(7)}  ${
    visibleText(e.tool)
  }${site}${tail}`;
}
