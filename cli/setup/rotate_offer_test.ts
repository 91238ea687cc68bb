import { assertEquals } from "../../tests/helpers/assert.ts";
import { type ClientFile, clientFiles } from "../../core/mcp_clients/clients.ts";
import { staleClients } from "./rotate_offer.ts";

const files = clientFiles({ os: "linux", home: "/h", cwd: "/h/p", env: () => undefined });
const pick = (client: string, scope: string, end: string) =>
  files.find((f) => f.client === client && f.scope === scope && f.path.endsWith(end)) as ClientFile;

Deno.test("staleClients: per scope, once per client; files setup does not write apart", () => {
  const stale = staleClients([
    pick("Cursor", "user", "mcp.json"),
    pick("Claude Code", "user", ".claude.json"),
    pick("Cursor", "user", "mcp.json"),
    pick("VS Code", "project", "mcp.json"),
    pick("VS Code", "user", "settings.json"),
  ]);
  assertEquals(stale, {
    user: ["cursor", "claude-code"],
    project: ["vscode"],
    others: ["VS Code (/h/.config/Code/User/settings.json)"],
    commands: ["hub setup cursor claude-code", "hub setup --project vscode"],
    runs: [
      { ids: ["cursor", "claude-code"], project: false, name: "hub" },
      { ids: ["vscode"], project: true, name: "hub" },
    ],
  });
  assertEquals(staleClients([pick("Codex", "user", "config.toml")], "9600").commands, [
    "hub setup codex --port 9600",
  ]);
});

Deno.test("staleClients: an entry set up with --name is updated with that --name", () => {
  const cursor = pick("Cursor", "user", "mcp.json");
  const stale = staleClients([
    { file: cursor, name: "browser" },
    { file: pick("Codex", "user", "config.toml"), name: "hub" },
    { file: pick("Gemini CLI", "user", "settings.json"), name: "browser" },
    { file: cursor, name: "has space" },
  ], "9600");
  assertEquals(stale.commands, [
    "hub setup codex --port 9600",
    "hub setup --name browser cursor gemini --port 9600",
  ]);
  assertEquals(stale.runs[1], { ids: ["cursor", "gemini"], project: false, name: "browser" });
  assertEquals(
    staleClients([{ file: cursor, name: "hub", mode: "stdio" }]).commands,
    ["hub setup --mode stdio cursor"],
  );
  const desktop = pick("Claude Desktop", "user", "claude_desktop_config.json");
  assertEquals(staleClients([{ file: desktop, name: "hub", mode: "stdio" }]).commands, [
    "hub setup claude-desktop",
  ]);
  // A name hub setup does not take is left to the person.
  assertEquals(stale.others, ["Cursor (/h/.cursor/mcp.json)"]);
});
