/**
 * The MCP server entries of a client's config file, and which of them point at this hub: an HTTP
 * entry whose URL is a loopback address with path `/mcp` or `/mcp/gateway` (also when a stdio
 * proxy such as mcp-remote is given that URL), or a stdio entry running `hub start --stdio`. Such
 * an entry is current when it reaches this hub's port with the current secret (stdio entries read
 * the secret themselves); otherwise it is stale, and the reason never shows the secret.
 */
import type { McpFileFormat } from "../../core/mcp_clients/clients.ts";
import { isHubEntry, isHubUrl } from "../../core/mcp_clients/hub_entry.ts";
import { isPlainObject } from "../../protocol/plain_object.ts";
import { clip } from "../../protocol/clip.ts";

export interface McpEntry {
  /** The server's name, with the project folder for Claude Code's per-project entries. */
  name: string;
  url?: string;
  headers: Record<string, string>;
  command?: string;
  args: string[];
  env: Record<string, string>;
}

export type Verdict =
  | { kind: "current"; how: string }
  | { kind: "stale"; why: string }
  | { kind: "unverified"; why: string };

export interface HubTarget {
  port: number;
  /** The current secret; undefined when auth.json is missing or broken. */
  secret: string | undefined;
  /** The config folder this hub reads (a stdio entry's HUB_CONFIG_DIR must name it). */
  configDir?: string;
  /** Whether a stdio entry's command can be run here (absolute path, or found on PATH). */
  commandExists?: (command: string) => boolean;
}

/** Entries read from one file at most (a file with thousands is bounded, not walked). */
export const MAX_ENTRIES_PER_FILE = 200;

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];

function stringRecord(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!isPlainObject(value)) return out;
  for (const [k, v] of Object.entries(value)) if (typeof v === "string") out[k] = v;
  return out;
}

function toEntry(name: string, raw: unknown): McpEntry | undefined {
  if (!isPlainObject(raw)) return undefined;
  const url = [raw.url, raw.serverUrl, raw.httpUrl].find((u) => typeof u === "string");
  return {
    name,
    url: url as string | undefined,
    headers: { ...stringRecord(raw.http_headers), ...stringRecord(raw.headers) }, // Codex: http_headers
    command: typeof raw.command === "string" ? raw.command : undefined,
    args: strings(raw.args),
    env: stringRecord(raw.env),
  };
}

function serversOf(servers: unknown, prefix: string, out: McpEntry[]): void {
  if (!isPlainObject(servers)) return;
  for (const [name, raw] of Object.entries(servers)) {
    if (out.length >= MAX_ENTRIES_PER_FILE) return;
    const entry = toEntry(prefix + name, raw);
    if (entry) out.push(entry);
  }
}

/** The entries of a parsed config file, in file order, at most MAX_ENTRIES_PER_FILE. */
export function entriesOf(format: McpFileFormat, doc: unknown): McpEntry[] {
  const out: McpEntry[] = [];
  if (!isPlainObject(doc)) return out;
  if (format === "mcpServers" || format === "claudeCode") serversOf(doc.mcpServers, "", out);
  if (format === "claudeCode" && isPlainObject(doc.projects)) {
    for (const [folder, project] of Object.entries(doc.projects)) {
      if (isPlainObject(project)) serversOf(project.mcpServers, `${folder}: `, out);
    }
  }
  if (format === "vscodeMcp") serversOf(doc.servers, "", out);
  if (format === "codexToml") serversOf(doc.mcp_servers, "", out);
  if (format === "vscodeSettings") {
    serversOf(isPlainObject(doc.mcp) ? doc.mcp.servers : undefined, "", out);
    serversOf(doc["mcp.servers"], "", out);
  }
  return out;
}

/** The port of a loopback URL whose path is a hub MCP endpoint; undefined for any other URL. */
export function hubUrlPort(text: string): number | undefined {
  if (!isHubUrl(text)) return undefined;
  const { port } = new URL(text.trim());
  return port === "" ? 80 : Number(port);
}

/** `${NAME}` / `${env:NAME}` / `${input:…}` replaced from the entry's env when it can be. */
function expand(value: string, env: Record<string, string>): string | undefined {
  let unresolved = false;
  const out = value.replace(/\$\{(?:env:)?([^}]+)\}/g, (_m, name: string) => {
    if (Object.hasOwn(env, name)) return env[name];
    unresolved = true;
    return "";
  });
  return unresolved ? undefined : out;
}

/** The Authorization value: from `headers`, or from `--header "Authorization: …"` arguments. */
function authorization(entry: McpEntry): string | undefined {
  for (const [k, v] of Object.entries(entry.headers)) {
    if (k.toLowerCase() === "authorization") return v;
  }
  for (const arg of entry.args) {
    const match = /^\s*authorization\s*:\s*(.*)$/i.exec(arg);
    if (match) return match[1];
  }
  return undefined;
}

function classifyUrl(entry: McpEntry, port: number, target: HubTarget): Verdict {
  if (port !== target.port) {
    return { kind: "stale", why: `it uses port ${port}, the hub ${target.port}` };
  }
  const raw = authorization(entry);
  if (raw === undefined) return { kind: "stale", why: "it sends no Authorization header" };
  const value = expand(raw, entry.env);
  if (value === undefined) {
    return { kind: "unverified", why: "its Authorization header comes from a variable" };
  }
  if (target.secret === undefined) {
    return { kind: "unverified", why: "there is no valid secret to compare with" };
  }
  const token = /^\s*bearer\s+(\S+)\s*$/i.exec(value)?.[1];
  return token === target.secret
    ? { kind: "current", how: "HTTP with the current secret" }
    : { kind: "stale", why: "its Bearer secret is not the current one" };
}

/** The `--port` of a `hub start --stdio` command line (or HUB_PORT in its env); undefined: none. */
function stdioPort(words: string[], env: Record<string, string>): number | undefined {
  for (const [i, word] of words.entries()) {
    if (word === "--port") return Number(words[i + 1]);
    if (word.startsWith("--port=")) return Number(word.slice(7));
  }
  return env.HUB_PORT === undefined ? undefined : Number(env.HUB_PORT);
}

/** A command as written, or its first word when a client was given a whole command line. */
function runnable(command: string, exists: (command: string) => boolean): boolean {
  return exists(command) || (/\s/.test(command) && exists(command.split(/\s+/)[0]));
}

/** Whether the entry concerns this hub, and if so whether it is current. Undefined: not hub. */
export function classify(entry: McpEntry, target: HubTarget): Verdict | undefined {
  const urls = [entry.url, ...entry.args].filter((u): u is string => typeof u === "string");
  for (const text of urls) {
    const port = hubUrlPort(text.trim());
    if (port !== undefined) return classifyUrl(entry, port, target);
  }
  if (!isHubEntry({ command: entry.command, args: entry.args })) return undefined;
  const words = [entry.command ?? "", ...entry.args].flatMap((w) => w.trim().split(/\s+/));
  const port = stdioPort(words, entry.env);
  if (port !== undefined && port !== target.port) {
    return { kind: "stale", why: `it uses port ${port}, the hub ${target.port}` };
  }
  const dir = entry.env.HUB_CONFIG_DIR;
  if (dir !== undefined && target.configDir !== undefined && dir !== target.configDir) {
    return { kind: "stale", why: "its HUB_CONFIG_DIR is another config folder than the hub's" };
  }
  const command = entry.command?.trim();
  if (command && target.commandExists && !runnable(command, target.commandExists)) {
    return { kind: "stale", why: `its command ${clip(command, 80)} is not found on this machine` };
  }
  return { kind: "current", how: "stdio bridge (reads the secret itself)" };
}
