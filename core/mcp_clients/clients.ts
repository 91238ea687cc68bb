/**
 * The one table of MCP clients: where each keeps its server list, per system (Linux, macOS,
 * Windows), in which format, and how an entry for it is written. `hub doctor` reads every file of
 * it; `hub setup` writes the files that carry a client id. User-wide files and the project files
 * of the folder the command runs in.
 */
import { posix, win32 } from "node:path";

/** The names `hub setup` takes. */
export type ClientId =
  | "claude-code"
  | "claude-desktop"
  | "cursor"
  | "vscode"
  | "windsurf"
  | "gemini"
  | "codex";

export const CLIENT_IDS: readonly ClientId[] = [
  "claude-code",
  "claude-desktop",
  "cursor",
  "vscode",
  "windsurf",
  "gemini",
  "codex",
];

export type McpFileFormat =
  /** `{ "mcpServers": { name: entry } }` (Claude Desktop, Cursor, .mcp.json, Windsurf, Gemini). */
  | "mcpServers"
  /** `~/.claude.json`: top-level `mcpServers` and `projects.<folder>.mcpServers`. */
  | "claudeCode"
  /** VS Code `mcp.json`: `{ "servers": { name: entry } }` (JSONC). */
  | "vscodeMcp"
  /** VS Code `settings.json`: `"mcp": { "servers": … }` or `"mcp.servers"` (JSONC). */
  | "vscodeSettings"
  /** Codex `config.toml`: one `[mcp_servers.<name>]` table per server. */
  | "codexToml";

/** How an entry is written: the keys each client reads (see core/mcp_clients/entry.ts). */
export type EntryShape = "claude" | "cursor" | "vscode" | "windsurf" | "gemini" | "codex";

export type Transport = "http" | "stdio";

export interface ClientFile {
  /** The display name, as doctor shows it ("Claude Code", "VS Code", …). */
  client: string;
  /** The name `hub setup` takes; absent for a file doctor reads but setup never writes. */
  id?: ClientId;
  scope: "user" | "project";
  path: string;
  format: McpFileFormat;
  shape: EntryShape;
  /** Transports the client can use: stdio-only clients (Claude Desktop) get stdio by default. */
  transports: ReadonlyArray<Transport>;
}

export interface LocationContext {
  os: typeof Deno.build.os;
  home: string;
  cwd: string;
  env(name: string): string | undefined;
}

const BOTH: ReadonlyArray<Transport> = ["http", "stdio"];
const STDIO_ONLY: ReadonlyArray<Transport> = ["stdio"];

/** The folder desktop apps keep their settings in: per system, as Electron apps use it. */
function appDataDir(ctx: LocationContext): string {
  const p = ctx.os === "windows" ? win32 : posix;
  if (ctx.os === "windows") return ctx.env("APPDATA") ?? p.join(ctx.home, "AppData", "Roaming");
  if (ctx.os === "darwin") return p.join(ctx.home, "Library", "Application Support");
  const xdg = ctx.env("XDG_CONFIG_HOME");
  return xdg && xdg.startsWith("/") ? xdg : p.join(ctx.home, ".config");
}

/** Codex's home: `$CODEX_HOME` when set to an absolute path, else `~/.codex`. */
function codexHome(ctx: LocationContext): string {
  const p = ctx.os === "windows" ? win32 : posix;
  const fromEnv = ctx.env("CODEX_HOME");
  return fromEnv && p.isAbsolute(fromEnv) ? fromEnv : p.join(ctx.home, ".codex");
}

type Row = Omit<ClientFile, "path"> & { path: (ctx: LocationContext) => string };

function rows(ctx: LocationContext): Row[] {
  const p = ctx.os === "windows" ? win32 : posix;
  const home = (...parts: string[]) => () => p.join(ctx.home, ...parts);
  const here = (...parts: string[]) => () => p.join(ctx.cwd, ...parts);
  const app = (...parts: string[]) => () => p.join(appDataDir(ctx), ...parts);
  const user = "user" as const, project = "project" as const;
  const claude = { client: "Claude Code", id: "claude-code", shape: "claude", transports: BOTH };
  const cursor = { client: "Cursor", id: "cursor", shape: "cursor", transports: BOTH };
  const vscode = { client: "VS Code", id: "vscode", shape: "vscode", transports: BOTH };
  const gemini = { client: "Gemini CLI", id: "gemini", shape: "gemini", transports: BOTH };
  const codex = { client: "Codex", id: "codex", shape: "codex", transports: BOTH };
  const list: Row[] = [
    {
      client: "Claude Desktop",
      id: "claude-desktop",
      scope: user,
      path: app("Claude", "claude_desktop_config.json"),
      format: "mcpServers",
      shape: "claude",
      transports: STDIO_ONLY,
    },
    { ...claude, scope: user, path: home(".claude.json"), format: "claudeCode" } as Row,
    { ...claude, scope: project, path: here(".mcp.json"), format: "mcpServers" } as Row,
    { ...cursor, scope: user, path: home(".cursor", "mcp.json"), format: "mcpServers" } as Row,
    { ...cursor, scope: project, path: here(".cursor", "mcp.json"), format: "mcpServers" } as Row,
  ];
  for (const [client, folder] of [["VS Code", "Code"], ["VS Code Insiders", "Code - Insiders"]]) {
    const base = { client, shape: "vscode" as const, transports: BOTH, scope: user };
    const id = client === "VS Code" ? { id: "vscode" as const } : {};
    list.push(
      { ...base, ...id, path: app(folder, "User", "mcp.json"), format: "vscodeMcp" },
      { ...base, path: app(folder, "User", "settings.json"), format: "vscodeSettings" },
    );
  }
  list.push(
    { ...vscode, scope: project, path: here(".vscode", "mcp.json"), format: "vscodeMcp" } as Row,
    {
      client: "Windsurf",
      id: "windsurf",
      scope: user,
      path: home(".codeium", "windsurf", "mcp_config.json"),
      format: "mcpServers",
      shape: "windsurf",
      transports: BOTH,
    },
    { ...gemini, scope: user, path: home(".gemini", "settings.json"), format: "mcpServers" } as Row,
    {
      ...gemini,
      scope: project,
      path: here(".gemini", "settings.json"),
      format: "mcpServers",
    } as Row,
    {
      ...codex,
      scope: user,
      path: () => p.join(codexHome(ctx), "config.toml"),
      format: "codexToml",
    } as Row,
    { ...codex, scope: project, path: here(".codex", "config.toml"), format: "codexToml" } as Row,
  );
  return list;
}

/** Every file to look at, without duplicates (the project folder may be the home folder). */
export function clientFiles(ctx: LocationContext): ClientFile[] {
  const files: ClientFile[] = rows(ctx).map((row) => ({ ...row, path: row.path(ctx) }));
  return files.filter((f, i) => files.findIndex((g) => g.path === f.path) === i);
}

/** The file `hub setup <id>` writes for a scope; undefined: that client has no such scope. */
export function setupTarget(
  id: ClientId,
  scope: "user" | "project",
  ctx: LocationContext,
): ClientFile | undefined {
  const row = rows(ctx).find((r) => r.id === id && r.scope === scope);
  return row && { ...row, path: row.path(ctx) };
}

/** Whether a name is one `hub setup` takes. */
export function isClientId(name: string): name is ClientId {
  return (CLIENT_IDS as readonly string[]).includes(name);
}

/** The folder a client's presence shows in (its settings file's folder, or the file itself). */
export function clientMarkers(id: ClientId, ctx: LocationContext): string[] {
  const p = ctx.os === "windows" ? win32 : posix;
  const file = setupTarget(id, "user", ctx)!.path;
  if (id === "claude-code") return [file, p.join(ctx.home, ".claude")];
  if (id === "vscode") return [file, p.dirname(p.dirname(file))];
  return [file, p.dirname(file)];
}
