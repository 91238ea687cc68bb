/**
 * Why `hub setup` updated an entry, for its report line: "secret changed", "port changed", "mode
 * changed", "command changed", else "entry changed". Compares the entry the file held (parsed from
 * the text before the edit) with the one written; the secret itself is never part of the reason.
 */
import { parse as parseJsonc } from "jsonc-parser";
import { parse as parseToml } from "smol-toml";
import type { McpFileFormat } from "../../core/mcp_clients/clients.ts";
import { isPlainObject } from "../../protocol/plain_object.ts";

type Entry = Record<string, unknown>;

function serversOf(format: McpFileFormat, doc: unknown): unknown {
  if (!isPlainObject(doc)) return undefined;
  if (format === "codexToml") return doc.mcp_servers;
  if (format === "vscodeMcp") return doc.servers;
  if (format === "vscodeSettings") return isPlainObject(doc.mcp) ? doc.mcp.servers : undefined;
  return doc.mcpServers;
}

/** The entry named `name` in a file's text; undefined when there is none or it does not parse. */
export function entryIn(text: string, format: McpFileFormat, name: string): Entry | undefined {
  try {
    const doc = format === "codexToml" ? parseToml(text) : parseJsonc(text);
    const servers = serversOf(format, doc);
    const entry = isPlainObject(servers) ? servers[name] : undefined;
    return isPlainObject(entry) ? entry : undefined;
  } catch {
    return undefined;
  }
}

const urlOf = (e: Entry) =>
  [e.url, e.serverUrl, e.httpUrl].find((u): u is string => typeof u === "string");

function authOf(e: Entry): string | undefined {
  const headers = isPlainObject(e.headers) ? e.headers : e.http_headers;
  if (!isPlainObject(headers)) return undefined;
  const key = Object.keys(headers).find((k) => k.toLowerCase() === "authorization");
  return key === undefined ? undefined : String(headers[key]);
}

function parts(url: string | undefined): { port: string; path: string } | undefined {
  try {
    const u = new URL(url ?? "");
    return { port: u.port, path: u.pathname.replace(/\/+$/, "") };
  } catch {
    return undefined;
  }
}

const argsOf = (e: Entry) => (Array.isArray(e.args) ? e.args.map(String) : []);
const portArg = (args: string[]) => args[args.indexOf("--port") + 1];

function stdioReason(old: Entry, now: Entry): string {
  const a = argsOf(old), b = argsOf(now);
  if (a.includes("--port") && portArg(a) !== portArg(b)) return "port changed";
  if (a.includes("--gateway") !== b.includes("--gateway")) return "mode changed";
  if (old.command !== now.command || a.join("\0") !== b.join("\0")) return "command changed";
  return "entry changed";
}

/** Why the entry changed from `old` to `now`. */
export function changeReason(old: Entry | undefined, now: Entry): string {
  if (old === undefined) return "entry changed";
  const oldUrl = urlOf(old), newUrl = urlOf(now);
  if ((oldUrl === undefined) !== (newUrl === undefined)) return "mode changed";
  if (oldUrl === undefined) return stdioReason(old, now);
  const a = parts(oldUrl), b = parts(newUrl);
  if (a && b && a.port !== b.port) return "port changed";
  if (a && b && a.path !== b.path) return "mode changed";
  if (authOf(old) !== authOf(now)) return "secret changed";
  return "entry changed";
}
