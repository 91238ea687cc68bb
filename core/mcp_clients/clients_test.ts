import { assertEquals } from "../../tests/helpers/assert.ts";
import {
  CLIENT_IDS,
  clientFiles,
  clientMarkers,
  isClientId,
  type LocationContext,
  setupTarget,
} from "./clients.ts";

const ctx = (
  os: typeof Deno.build.os,
  home: string,
  cwd: string,
  env: Record<string, string> = {},
): LocationContext => ({ os, home, cwd, env: (n) => env[n] });

const byClient = (files: ReturnType<typeof clientFiles>) =>
  files.map((f) => `${f.client} | ${f.format} | ${f.path}`);

Deno.test("linux: XDG config folder for desktop apps, dot-folders in the home", () => {
  assertEquals(
    byClient(clientFiles(ctx("linux", "/home/u", "/work/p", { XDG_CONFIG_HOME: "/x" }))),
    [
      "Claude Desktop | mcpServers | /x/Claude/claude_desktop_config.json",
      "Claude Code | claudeCode | /home/u/.claude.json",
      "Claude Code | mcpServers | /work/p/.mcp.json",
      "Cursor | mcpServers | /home/u/.cursor/mcp.json",
      "Cursor | mcpServers | /work/p/.cursor/mcp.json",
      "VS Code | vscodeMcp | /x/Code/User/mcp.json",
      "VS Code | vscodeSettings | /x/Code/User/settings.json",
      "VS Code Insiders | vscodeMcp | /x/Code - Insiders/User/mcp.json",
      "VS Code Insiders | vscodeSettings | /x/Code - Insiders/User/settings.json",
      "VS Code | vscodeMcp | /work/p/.vscode/mcp.json",
      "Windsurf | mcpServers | /home/u/.codeium/windsurf/mcp_config.json",
      "Gemini CLI | mcpServers | /home/u/.gemini/settings.json",
      "Gemini CLI | mcpServers | /work/p/.gemini/settings.json",
      "Codex | codexToml | /home/u/.codex/config.toml",
      "Codex | codexToml | /work/p/.codex/config.toml",
    ],
  );
  const plain = clientFiles(ctx("linux", "/home/u", "/work/p"));
  assertEquals(plain[0].path, "/home/u/.config/Claude/claude_desktop_config.json");
});

Deno.test("macOS: Library/Application Support", () => {
  const files = clientFiles(ctx("darwin", "/Users/u", "/Users/u/p"));
  assertEquals(
    files[0].path,
    "/Users/u/Library/Application Support/Claude/claude_desktop_config.json",
  );
  assertEquals(
    files.find((f) => f.format === "vscodeSettings")!.path,
    "/Users/u/Library/Application Support/Code/User/settings.json",
  );
});

Deno.test("windows: APPDATA, with the roaming folder as fallback", () => {
  const files = clientFiles(
    ctx("windows", "C:\\Users\\u", "C:\\p", { APPDATA: "C:\\Users\\u\\AppData\\Roaming" }),
  );
  assertEquals(files[0].path, "C:\\Users\\u\\AppData\\Roaming\\Claude\\claude_desktop_config.json");
  assertEquals(files[1].path, "C:\\Users\\u\\.claude.json");
  assertEquals(
    files.find((f) => f.client === "Windsurf")!.path,
    "C:\\Users\\u\\.codeium\\windsurf\\mcp_config.json",
  );
  const fallback = clientFiles(ctx("windows", "C:\\Users\\u", "C:\\p"));
  assertEquals(
    fallback[0].path,
    "C:\\Users\\u\\AppData\\Roaming\\Claude\\claude_desktop_config.json",
  );
});

Deno.test("a project folder that is the home folder is not listed twice", () => {
  const files = clientFiles(ctx("linux", "/home/u", "/home/u"));
  assertEquals(files.filter((f) => f.path === "/home/u/.cursor/mcp.json").length, 1);
  assertEquals(files.filter((f) => f.path === "/home/u/.gemini/settings.json").length, 1);
});

Deno.test("every client id has a user file; project scope only where the client has one", () => {
  const c = ctx("linux", "/home/u", "/work/p", { CODEX_HOME: "/c" });
  const user = CLIENT_IDS.map((id) => `${id} ${setupTarget(id, "user", c)?.path}`);
  assertEquals(user, [
    "claude-code /home/u/.claude.json",
    "claude-desktop /home/u/.config/Claude/claude_desktop_config.json",
    "cursor /home/u/.cursor/mcp.json",
    "vscode /home/u/.config/Code/User/mcp.json",
    "windsurf /home/u/.codeium/windsurf/mcp_config.json",
    "gemini /home/u/.gemini/settings.json",
    "codex /c/config.toml",
  ]);
  const project = CLIENT_IDS.map((id) => `${id} ${setupTarget(id, "project", c)?.path}`);
  assertEquals(project, [
    "claude-code /work/p/.mcp.json",
    "claude-desktop undefined",
    "cursor /work/p/.cursor/mcp.json",
    "vscode /work/p/.vscode/mcp.json",
    "windsurf undefined",
    "gemini /work/p/.gemini/settings.json",
    "codex /work/p/.codex/config.toml",
  ]);
});

Deno.test("setup targets are rows of the one table doctor reads, with their shape", () => {
  const c = ctx("darwin", "/Users/u", "/Users/u/p");
  for (const id of CLIENT_IDS) {
    for (const scope of ["user", "project"] as const) {
      const target = setupTarget(id, scope, c);
      if (!target) continue;
      assertEquals(clientFiles(c).find((f) => f.path === target.path), target);
    }
  }
  assertEquals(setupTarget("claude-desktop", "user", c)!.transports, ["stdio"]);
  assertEquals(setupTarget("codex", "user", c)!.shape, "codex");
  const settings = clientFiles(c).filter((f) => f.format === "vscodeSettings");
  assertEquals(settings.map((f) => f.id), [undefined, undefined], "settings.json is read only");
  assertEquals(isClientId("vscode"), true);
  assertEquals(isClientId("VS Code"), false);
});

Deno.test("a client shows it is installed by its settings file or its folder", () => {
  const c = ctx("linux", "/h", "/p");
  assertEquals(clientMarkers("claude-code", c), ["/h/.claude.json", "/h/.claude"]);
  assertEquals(clientMarkers("vscode", c), ["/h/.config/Code/User/mcp.json", "/h/.config/Code"]);
  assertEquals(clientMarkers("claude-desktop", c), [
    "/h/.config/Claude/claude_desktop_config.json",
    "/h/.config/Claude",
  ]);
  assertEquals(clientMarkers("windsurf", c)[1], "/h/.codeium/windsurf");
});
