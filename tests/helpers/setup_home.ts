/**
 * A temporary HOME for `hub setup` tests: the settings files of every MCP client hub writes into
 * (copied from tests/fixtures/mcp_clients), the environment that points every client location and
 * the config folder into it, and checks on what an edit changed. Tests never touch the real HOME.
 */
import { dirname, join } from "node:path";
import { findNodeAtLocation, parse as parseJsonc, type ParseError, parseTree } from "jsonc-parser";
import { parse as parseToml } from "smol-toml";
import { assert, assertEquals } from "./assert.ts";
import { ROOT, runHub, type RunResult, tempConfigDir } from "./hub_process.ts";

export const FIXTURES = join(ROOT, "tests", "fixtures", "mcp_clients");

export interface TempHome {
  base: string;
  home: string;
  /** The folder `hub setup --project` runs in. */
  project: string;
  configDir: string;
  /** A folder outside the home (symlink targets). */
  outside: string;
}

export type FileKind = "json" | "toml";

/** One settings file hub writes into, where it lives in the temp HOME and its fixture. */
export interface ClientCase {
  id: string;
  project?: true;
  kind: FileKind;
  /** Where the servers are: a JSON key path, or the TOML table `mcp_servers`. */
  servers: string[];
  fixture: string;
  path(h: TempHome): string;
}

export const USER_CASES: ClientCase[] = [
  {
    id: "claude-code",
    kind: "json",
    servers: ["mcpServers"],
    fixture: "claude.json.txt",
    path: (h) => join(h.home, ".claude.json"),
  },
  {
    id: "claude-desktop",
    kind: "json",
    servers: ["mcpServers"],
    fixture: "claude_desktop_config.json.txt",
    path: (h) => join(h.home, ".config", "Claude", "claude_desktop_config.json"),
  },
  {
    id: "cursor",
    kind: "json",
    servers: ["mcpServers"],
    fixture: "cursor_mcp.json.txt",
    path: (h) => join(h.home, ".cursor", "mcp.json"),
  },
  {
    id: "vscode",
    kind: "json",
    servers: ["servers"],
    fixture: "vscode_mcp.json.txt",
    path: (h) => join(h.home, ".config", "Code", "User", "mcp.json"),
  },
  {
    id: "windsurf",
    kind: "json",
    servers: ["mcpServers"],
    fixture: "windsurf_mcp_config.json.txt",
    path: (h) => join(h.home, ".codeium", "windsurf", "mcp_config.json"),
  },
  {
    id: "gemini",
    kind: "json",
    servers: ["mcpServers"],
    fixture: "gemini_settings.json.txt",
    path: (h) => join(h.home, ".gemini", "settings.json"),
  },
  {
    id: "codex",
    kind: "toml",
    servers: ["mcp_servers"],
    fixture: "codex_config.toml.txt",
    path: (h) => join(h.home, ".codex", "config.toml"),
  },
];

export const PROJECT_CASES: ClientCase[] = [
  {
    id: "claude-code",
    project: true,
    kind: "json",
    servers: ["mcpServers"],
    fixture: "project_mcp.json.txt",
    path: (h) => join(h.project, ".mcp.json"),
  },
  {
    id: "vscode",
    project: true,
    kind: "json",
    servers: ["servers"],
    fixture: "project_vscode_mcp.json.txt",
    path: (h) => join(h.project, ".vscode", "mcp.json"),
  },
  {
    id: "cursor",
    project: true,
    kind: "json",
    servers: ["mcpServers"],
    fixture: "cursor_mcp.json.txt",
    path: (h) => join(h.project, ".cursor", "mcp.json"),
  },
  {
    id: "gemini",
    project: true,
    kind: "json",
    servers: ["mcpServers"],
    fixture: "gemini_settings.json.txt",
    path: (h) => join(h.project, ".gemini", "settings.json"),
  },
  {
    id: "codex",
    project: true,
    kind: "toml",
    servers: ["mcp_servers"],
    fixture: "codex_config.toml.txt",
    path: (h) => join(h.project, ".codex", "config.toml"),
  },
];

export async function makeHome(): Promise<TempHome> {
  const base = await tempConfigDir();
  const h = {
    base,
    home: join(base, "home"),
    project: join(base, "project"),
    configDir: join(base, "home", ".hub"),
    outside: join(base, "outside"),
  };
  for (const dir of [h.home, h.project, h.outside]) await Deno.mkdir(dir, { recursive: true });
  return h;
}

/** Deno's cache, passed on explicitly because the children get another HOME. */
export function denoDir(): string {
  const cache = Deno.env.get("XDG_CACHE_HOME") ?? join(Deno.env.get("HOME") ?? "/root", ".cache");
  return Deno.env.get("DENO_DIR") ?? join(cache, "deno");
}

/** Every variable a client location is computed from, pointed into the temp HOME. */
export function homeEnv(h: TempHome): Record<string, string> {
  return {
    HOME: h.home,
    USERPROFILE: h.home,
    APPDATA: join(h.home, "AppData", "Roaming"),
    XDG_CONFIG_HOME: join(h.home, ".config"),
    CODEX_HOME: join(h.home, ".codex"),
    DENO_DIR: denoDir(),
    INIT_CWD: h.project,
  };
}

/** Runs `hub <args>` in the project folder with the temp HOME. */
export function hubIn(h: TempHome, args: string[], extra: Record<string, string> = {}) {
  return runHub(args, { configDir: h.configDir, env: { ...homeEnv(h), ...extra }, cwd: h.project });
}

export interface SetupClientJson {
  client: string;
  path: string;
  outcome: string;
  mode?: string;
  warning?: string;
  error?: string;
}

/** `hub setup <args> --json`, its report parsed. */
export async function setupJson(
  h: TempHome,
  args: string[],
): Promise<{ result: RunResult; clients: SetupClientJson[] }> {
  const result = await hubIn(h, ["setup", ...args, "--json"]);
  let report: { clients: SetupClientJson[] };
  try {
    report = JSON.parse(result.stdout);
  } catch {
    throw new Error(
      `hub setup printed no JSON (exit ${result.code}):\n${result.stdout}\n${result.stderr}`,
    );
  }
  return { result, clients: report.clients };
}

/** Places `c`'s fixture at its path (folders created), mode 0600; returns its text. */
export async function placeFixture(h: TempHome, c: ClientCase, mode = 0o600): Promise<string> {
  const text = await Deno.readTextFile(join(FIXTURES, c.fixture));
  await Deno.mkdir(dirname(c.path(h)), { recursive: true });
  await Deno.writeTextFile(c.path(h), text);
  await Deno.chmod(c.path(h), mode);
  return text;
}

/** The parsed settings file. */
export function parseFile(kind: FileKind, text: string): Record<string, unknown> {
  if (kind === "toml") return parseToml(text) as Record<string, unknown>;
  const errors: ParseError[] = [];
  const doc = parseJsonc(text, errors, { allowTrailingComma: true });
  assertEquals(errors, [], "the file hub wrote parses as JSONC");
  return doc ?? {};
}

/** The entry `name` of the file, or undefined. */
export function entryOf(
  c: ClientCase,
  text: string,
  name = "hub",
): Record<string, unknown> | undefined {
  let node: unknown = parseFile(c.kind, text);
  for (const key of [...c.servers, name]) {
    if (typeof node !== "object" || node === null) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node as Record<string, unknown> | undefined;
}

/** Where the entry `name` is in the text: the JSON property, or the TOML table and its sub-tables. */
export function entrySpan(
  c: ClientCase,
  text: string,
  name = "hub",
): { start: number; end: number } | undefined {
  if (c.kind === "json") {
    const root = parseTree(text, [], { allowTrailingComma: true });
    const value = root && findNodeAtLocation(root, [...c.servers, name]);
    const prop = value?.parent;
    return prop ? { start: prop.offset, end: prop.offset + prop.length } : undefined;
  }
  const header = new RegExp(`^\\[\\s*mcp_servers\\.(?:${name}|"${name}")\\s*\\][^\\n]*$`, "m");
  const match = header.exec(text);
  if (!match) return undefined;
  const own = new RegExp(`^\\[\\s*mcp_servers\\.(?:${name}|"${name}")[.\\]]`);
  let end = text.length;
  const next = /^\s*\[/gm;
  next.lastIndex = match.index + match[0].length;
  for (let m = next.exec(text); m; m = next.exec(text)) {
    const line = text.slice(m.index).trimStart();
    if (!own.test(line)) {
      end = m.index;
      break;
    }
  }
  return { start: match.index, end };
}

function cut(text: string, span?: { start: number; end: number }): string {
  return span ? text.slice(0, span.start) + text.slice(span.end) : text;
}

/**
 * Every byte outside hub's entry is the same: with the entry cut out of both texts, they differ
 * at most in separators (whitespace, commas) at the one place the entry was.
 */
export function assertOnlyEntryChanged(c: ClientCase, before: string, after: string, name = "hub") {
  const a = cut(before, entrySpan(c, before, name));
  const b = cut(after, entrySpan(c, after, name));
  let p = 0;
  while (p < a.length && p < b.length && a[p] === b[p]) p++;
  let s = 0;
  while (s < a.length - p && s < b.length - p && a[a.length - 1 - s] === b[b.length - 1 - s]) s++;
  const midA = a.slice(p, a.length - s), midB = b.slice(p, b.length - s);
  assert(
    /^[\s,]*$/.test(midA) && /^[\s,]*$/.test(midB),
    `${c.id}: more than hub's entry changed near offset ${p}: ${JSON.stringify(midA)} became ` +
      `${JSON.stringify(midB)}\n--- before\n${before}\n--- after\n${after}`,
  );
}

/** The mode bits of a file. */
export async function modeOf(path: string): Promise<number> {
  return (await Deno.stat(path)).mode! & 0o777;
}

/** Whether the entry reaches hub over HTTP on `port` with `secret` (any client's key names). */
export function httpTarget(
  entry: Record<string, unknown>,
): { url: string; headers: Record<string, string> } {
  const url = [entry.url, entry.serverUrl, entry.httpUrl].find((u) => typeof u === "string");
  assert(typeof url === "string", `no URL in ${JSON.stringify(entry)}`);
  const headers = (entry.headers ?? entry.http_headers ?? {}) as Record<string, string>;
  return { url, headers };
}
