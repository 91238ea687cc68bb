/**
 * Where MCP clients keep their server lists, per system: Claude Desktop, Claude Code, Cursor,
 * VS Code (and Insiders), Windsurf and Gemini CLI; user-wide files and the project files of the
 * folder the command runs in. Each file has a format saying where its servers are.
 */
import { posix, win32 } from "node:path";

export type McpFileFormat =
  /** `{ "mcpServers": { name: entry } }` (Claude Desktop, Cursor, .mcp.json, Windsurf, Gemini). */
  | "mcpServers"
  /** `~/.claude.json`: top-level `mcpServers` and `projects.<folder>.mcpServers`. */
  | "claudeCode"
  /** VS Code `mcp.json`: `{ "servers": { name: entry } }` (JSONC). */
  | "vscodeMcp"
  /** VS Code `settings.json`: `"mcp": { "servers": … }` or `"mcp.servers"` (JSONC). */
  | "vscodeSettings";

export interface ClientFile {
  client: string;
  path: string;
  format: McpFileFormat;
}

export interface LocationContext {
  os: typeof Deno.build.os;
  home: string;
  cwd: string;
  env(name: string): string | undefined;
}

/** The folder desktop apps keep their settings in: per system, as Electron apps use it. */
function appDataDir(ctx: LocationContext): string {
  const p = ctx.os === "windows" ? win32 : posix;
  if (ctx.os === "windows") return ctx.env("APPDATA") ?? p.join(ctx.home, "AppData", "Roaming");
  if (ctx.os === "darwin") return p.join(ctx.home, "Library", "Application Support");
  const xdg = ctx.env("XDG_CONFIG_HOME");
  return xdg && xdg.startsWith("/") ? xdg : p.join(ctx.home, ".config");
}

/** Every file to look at, without duplicates (the project folder may be the home folder). */
export function clientFiles(ctx: LocationContext): ClientFile[] {
  const p = ctx.os === "windows" ? win32 : posix;
  const home = (...parts: string[]) => p.join(ctx.home, ...parts);
  const here = (...parts: string[]) => p.join(ctx.cwd, ...parts);
  const appData = appDataDir(ctx);
  const files: ClientFile[] = [
    {
      client: "Claude Desktop",
      path: p.join(appData, "Claude", "claude_desktop_config.json"),
      format: "mcpServers",
    },
    { client: "Claude Code", path: home(".claude.json"), format: "claudeCode" },
    { client: "Claude Code", path: here(".mcp.json"), format: "mcpServers" },
    { client: "Cursor", path: home(".cursor", "mcp.json"), format: "mcpServers" },
    { client: "Cursor", path: here(".cursor", "mcp.json"), format: "mcpServers" },
  ];
  for (const [client, folder] of [["VS Code", "Code"], ["VS Code Insiders", "Code - Insiders"]]) {
    files.push(
      { client, path: p.join(appData, folder, "User", "mcp.json"), format: "vscodeMcp" },
      { client, path: p.join(appData, folder, "User", "settings.json"), format: "vscodeSettings" },
    );
  }
  files.push(
    { client: "VS Code", path: here(".vscode", "mcp.json"), format: "vscodeMcp" },
    {
      client: "Windsurf",
      path: home(".codeium", "windsurf", "mcp_config.json"),
      format: "mcpServers",
    },
    { client: "Gemini CLI", path: home(".gemini", "settings.json"), format: "mcpServers" },
    { client: "Gemini CLI", path: here(".gemini", "settings.json"), format: "mcpServers" },
  );
  return files.filter((f, i) => files.findIndex((g) => g.path === f.path) === i);
}
