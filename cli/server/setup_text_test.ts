import { isAbsolute, join } from "node:path";
import { assert, assertEquals, assertMatch } from "../../tests/helpers/assert.ts";
import { hubPaths } from "../../core/config/paths.ts";
import { telemetryDecision } from "../../core/telemetry/decision.ts";
import { firstRunText, mcpClientConfig } from "./setup_text.ts";

Deno.test("the first run says whether telemetry is on, what it collects and how to turn it off", () => {
  const paths = hubPaths("/tmp/hub-x");
  const on = firstRunText(paths, true, telemetryDecision(true, {}));
  assertMatch(on, /Anonymous telemetry is on: hub version, OS, runtime, plugin and call counts/);
  assertMatch(on, /never your\ntools' arguments, results, URLs, names or paths/);
  assertMatch(on, /"hub telemetry disable" \(or set DO_NOT_TRACK=1\)/);
  const off = firstRunText(paths, true, telemetryDecision(true, { DO_NOT_TRACK: "1" }));
  assertMatch(off, /Anonymous telemetry is off \(DO_NOT_TRACK=1 is set\)\./);
  assert(!firstRunText(paths, true).includes("telemetry"));
});

Deno.test("the stdio block names a command that runs from any folder (absolute paths)", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close(); // nothing listens there: the bridge must start, then say no hub runs
  const text = mcpClientConfig(port, "s3cret");
  const json = text.slice(text.lastIndexOf('{\n  "mcpServers"'), text.lastIndexOf("}") + 1);
  const entry = JSON.parse(json).mcpServers.hub;
  assert(!JSON.stringify(entry).includes("s3cret"), "stdio entries carry no secret");
  assert(isAbsolute(entry.command), entry.command);
  assertEquals(entry.args.slice(-4), ["start", "--stdio", "--port", String(port)]);
  const home = await Deno.makeTempDir();
  try {
    const env = { HOME: home, USERPROFILE: home, HUB_CONFIG_DIR: join(home, "cfg") };
    const out = await new Deno.Command(entry.command, {
      args: entry.args,
      cwd: home,
      env: { ...env, ...entry.env },
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(out.stderr);
    assertEquals(out.code, 1, stderr);
    assertMatch(stderr, new RegExp(`No hub is running on port ${port}`));
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
