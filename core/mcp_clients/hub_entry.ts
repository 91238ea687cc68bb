/**
 * Whether a server entry in a client's settings file is recognisably one hub wrote (or one that
 * reaches hub), so `hub setup` may update or remove it: a loopback `http:` URL whose path is `/mcp`
 * or `/mcp/gateway` (in `url`, `serverUrl`, `httpUrl`, or an argument, as a stdio proxy gets it),
 * or a command line running `hub … start --stdio` (hub, `@tabhub/hub`, or hub's `main.ts`). Any
 * other entry with hub's name belongs to someone else: replacing it would lose it.
 */
import { isLoopbackHost } from "../../protocol/loopback.ts";

const HUB_PROGRAM = /(^|[/\\])hub(\.cmd|\.exe|\.ps1)?$|@tabhub\/hub(@[^/\s]*)?$|(^|[/\\])main\.ts$/;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** `text` is a loopback http URL to hub's `/mcp` or `/mcp/gateway`. */
export function isHubUrl(text: string): boolean {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return false;
  }
  const path = url.pathname.replace(/\/+$/, "");
  return url.protocol === "http:" && isLoopbackHost(url.hostname) &&
    (path === "/mcp" || path === "/mcp/gateway");
}

/** The entry reaches hub: a hub URL, or a `start --stdio` command line of hub's program. */
export function isHubEntry(raw: unknown): boolean {
  if (!isRecord(raw)) return false;
  const args = Array.isArray(raw.args) ? raw.args.filter((a) => typeof a === "string") : [];
  const urls = [raw.url, raw.serverUrl, raw.httpUrl, ...args];
  if (urls.some((u) => typeof u === "string" && isHubUrl(u))) return true;
  const command = typeof raw.command === "string" ? raw.command : "";
  const words = [command, ...args].flatMap((w) => w.trim().split(/\s+/));
  const start = words.indexOf("start");
  return start >= 0 && words.indexOf("--stdio", start) > start &&
    words.slice(0, start).some((w) => HUB_PROGRAM.test(w));
}
