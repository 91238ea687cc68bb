import { assertEquals, assertRejects } from "../../tests/helpers/assert.ts";
import { type ChooseDeps, type ChooseOptions, chooseTargets, detectClients } from "./choose.ts";
import type { LocationContext } from "../../core/mcp_clients/clients.ts";

const ctx: LocationContext = {
  os: "linux",
  home: "/h",
  cwd: "/h/proj",
  env: () => undefined,
};
const base: ChooseOptions = { project: false, yes: false, dryRun: false, remove: false };

function deps(present: string[], answer?: boolean): ChooseDeps & { said: string[] } {
  const said: string[] = [];
  return {
    ctx,
    exists: (p) => Promise.resolve(present.includes(p)),
    ask: answer === undefined ? undefined : () => answer,
    say: (line) => said.push(line),
    said,
  };
}

Deno.test("detectClients: a settings file or a client's folder shows it", async () => {
  const found = await detectClients(
    base,
    deps(["/h/.claude", "/h/.cursor", "/h/.codex/config.toml", "/h/.config/Code"]),
  );
  assertEquals(found, ["claude-code", "cursor", "vscode", "codex"]);
});

Deno.test("detectClients --project: the project's files, .mcp.json or .claude/", async () => {
  const found = await detectClients(
    { ...base, project: true },
    deps(["/h/proj/.mcp.json", "/h/proj/.vscode", "/h/.cursor"]),
  );
  assertEquals(found, ["claude-code", "vscode"]);
});

Deno.test("chooseTargets: named clients, deduplicated, with their files", async () => {
  const files = await chooseTargets(["cursor", "codex", "cursor"], base, deps([]));
  assertEquals(files.map((f) => [f.id, f.path]), [
    ["cursor", "/h/.cursor/mcp.json"],
    ["codex", "/h/.codex/config.toml"],
  ]);
});

Deno.test("chooseTargets: an unknown name and a client without project scope are refused", async () => {
  await assertRejects(() => chooseTargets(["cursr"], base, deps([])), /Unknown client "cursr"/);
  await assertRejects(
    () => chooseTargets(["windsurf"], { ...base, project: true }, deps([])),
    /windsurf has no project settings file/,
  );
});

Deno.test("chooseTargets: found clients need --yes, a yes on the terminal, or --dry-run", async () => {
  const present = ["/h/.gemini", "/h/.cursor"];
  await assertRejects(() => chooseTargets([], base, deps(present)), /Pass --yes/);
  const yes = await chooseTargets([], { ...base, yes: true }, deps(present));
  assertEquals(yes.map((f) => f.id), ["cursor", "gemini"]);
  const dry = await chooseTargets([], { ...base, dryRun: true }, deps(present));
  assertEquals(dry.length, 2);
  assertEquals((await chooseTargets([], base, deps(present, true))).length, 2);
  const no = deps(present, false);
  assertEquals(await chooseTargets([], base, no), []);
  assertEquals(no.said, ["Nothing changed."]);
});

Deno.test("chooseTargets: nothing found says how to name a client", async () => {
  await assertRejects(() => chooseTargets([], base, deps([])), /No MCP client found/);
});
