/**
 * `hub doctor` reads JSON and JSONC files others write: MCP client configs in the current folder
 * and the home folder, and hub's own config.json. A million nested `[` (which ended doctor with a
 * RangeError), deep JSONC objects, a FIFO where a client config should be, and a deep config.json
 * each become a line of the report with the reason; doctor finishes and never crashes.
 */
import { join } from "node:path";
import { assert, assertMatch } from "../helpers/assert.ts";
import { freePort, runHub, withTempDir } from "../helpers/hub_process.ts";
import { makeFifo } from "../helpers/file_kinds.ts";

Deno.test({
  name:
    "hub doctor survives deep JSON and JSONC, a FIFO and a deep config.json: warnings, no crash",
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    await withTempDir(async (dir) => {
      const configDir = join(dir, "config");
      const project = join(dir, "project");
      const home = join(dir, "home");
      await Deno.mkdir(configDir);
      await Deno.mkdir(join(project, ".vscode"), { recursive: true });
      await Deno.mkdir(join(project, ".cursor"), { recursive: true });
      await Deno.mkdir(home);
      await Deno.writeTextFile(join(project, ".mcp.json"), "[".repeat(1_000_000));
      await Deno.writeTextFile(
        join(project, ".vscode", "mcp.json"),
        `// deep\n${'{"a": '.repeat(200_000)}1${"}".repeat(200_000)}`,
      );
      await makeFifo(join(project, ".cursor", "mcp.json"));
      await Deno.writeTextFile(join(configDir, "config.json"), `{"x": ${"[".repeat(500_000)}`);
      const out = await runHub(["doctor"], {
        configDir,
        cwd: project,
        env: { HOME: home, HUB_PORT: String(freePort()) },
        timeoutMs: 60_000,
      });
      const text = out.stdout + out.stderr;
      assert(!/RangeError|Maximum call stack|Uncaught/.test(text), text);
      assertMatch(text, /\.mcp\.json: not used: it nests deeper than 128 levels \(at line 1\)/);
      assertMatch(
        text,
        /\.vscode\/mcp\.json: not used: it nests deeper than 128 levels \(at line 2\)/,
      );
      assertMatch(text, /\.cursor\/mcp\.json: cannot be read \(not a file\)/);
      assertMatch(text, /config\.json[^\n]*nests deeper than 128 levels/);
      assert(out.code === 0 || out.code === 1, `doctor exited with ${out.code}:\n${text}`);
    });
  },
});
