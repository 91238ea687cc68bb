/**
 * End to end: `hub logs [--lines n] [-f] [--plugin name]` on the server.log a real hub wrote, and
 * with `--plugin` on its plugins.log. The tests share one config dir whose logs they extend; they
 * run in order.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { runHub, spawnHub, startHub, tempConfigDir } from "./helpers/hub_process.ts";

let configDir = "";
let logPath = "";
let pluginLogPath = "";

Deno.test.beforeAll(async () => {
  configDir = await tempConfigDir();
  logPath = join(configDir, "server.log");
  pluginLogPath = join(configDir, "plugins.log");
  const hub = await startHub({ configDir });
  try {
    const res = await fetch(`${hub.url}/health`);
    await res.body?.cancel();
  } finally {
    assertEquals(await hub.stop(), 0);
  }
});

Deno.test.afterAll(async () => {
  await Deno.remove(configDir, { recursive: true });
});

function logs(args: string[], dir = configDir) {
  return runHub(["logs", ...args], { configDir: dir });
}

async function append(...lines: string[]): Promise<void> {
  await Deno.writeTextFile(logPath, lines.map((l) => `${l}\n`).join(""), { append: true });
}

async function appendPlugins(...lines: string[]): Promise<void> {
  await Deno.writeTextFile(pluginLogPath, lines.map((l) => `${l}\n`).join(""), { append: true });
}

async function logLines(): Promise<string[]> {
  return (await Deno.readTextFile(logPath)).split("\n").filter((l) => l !== "");
}

function printed(stdout: string): string[] {
  return stdout.split("\n").filter((l) => l !== "");
}

Deno.test("hub logs without a server.log exits 1 and says where the log would be", async () => {
  const empty = await tempConfigDir();
  try {
    const r = await logs([], empty);
    assertEquals(r.code, 1);
    assert(r.stderr.includes(join(empty, "server.log")), r.stderr);
    assertMatch(r.stderr, /does not exist/);
    assertMatch(r.stderr, /hub start/);
  } finally {
    await Deno.remove(empty, { recursive: true });
  }
});

Deno.test("hub logs prints what the hub wrote; --lines 2 prints exactly the last 2 lines", async () => {
  const all = await logs([]);
  assertEquals(all.code, 0, all.stderr);
  assertMatch(all.stdout, /listening on http:\/\/127\.0\.0\.1:\d+/);
  assertMatch(all.stdout, /Stopped/);

  await append("2026-01-01T00:00:00.000Z INFO  line A", "2026-01-01T00:00:00.001Z INFO  line B");
  const two = await logs(["--lines", "2"]);
  assertEquals(two.code, 0, two.stderr);
  assertEquals(printed(two.stdout), (await logLines()).slice(-2));
  assertEquals(
    two.stdout,
    "2026-01-01T00:00:00.000Z INFO  line A\n2026-01-01T00:00:00.001Z INFO  line B\n",
  );
});

Deno.test("hub logs prints the last 50 lines by default", async () => {
  await append(...Array.from({ length: 70 }, (_, i) => `INFO  filler ${i}`));
  const r = await logs([]);
  assertEquals(r.code, 0, r.stderr);
  assertEquals(printed(r.stdout), (await logLines()).slice(-50));
  assertEquals(printed(r.stdout).length, 50);
});

Deno.test("the hub writes plugins.log beside server.log, private", async () => {
  const info = await Deno.stat(pluginLogPath);
  assert(info.isFile);
  if (Deno.build.os !== "windows") assertEquals(info.mode! & 0o777, 0o600);
});

Deno.test("hub logs --plugin foo reads plugins.log and keeps only lines containing [plugin:foo]", async () => {
  await append("INFO  [plugin:foo] in server.log, from an older hub");
  await appendPlugins(
    "INFO  [plugin:foo] first",
    "INFO  [plugin:bar] other plugin",
    "INFO  [plugin:foobar] similar name",
    "INFO  no plugin at all",
    "WARN  [plugin:foo] second",
  );
  const r = await logs(["--plugin", "foo"]);
  assertEquals(r.code, 0, r.stderr);
  assertEquals(printed(r.stdout), ["INFO  [plugin:foo] first", "WARN  [plugin:foo] second"]);
  const one = await logs(["--plugin", "foo", "--lines", "1"]);
  assertEquals(printed(one.stdout), ["WARN  [plugin:foo] second"]);
  const none = await logs(["--plugin", "nobody"]);
  assertEquals(none.code, 0);
  assertEquals(none.stdout, "");
});

Deno.test("hub logs --lines rejects what is not a whole number", async () => {
  for (const bad of ["abc", "1.5", "-1", ""]) {
    const r = await logs(["--lines", bad]);
    assertEquals(r.code, 1, `--lines "${bad}": ${r.stdout}`);
    assertEquals(r.stdout, "");
    assertMatch(r.stderr, /--lines/);
  }
});

Deno.test({
  name: "hub logs --lines 0 prints no lines",
  fn: async () => {
    const r = await logs(["--lines", "0"]);
    assertEquals(r.code, 0, r.stderr);
    assertEquals(r.stdout, "");
  },
});

Deno.test("hub logs -f prints lines appended after it started, filtered by --plugin", async () => {
  await append("INFO  hub line before follow");
  await appendPlugins("INFO  [plugin:foo] before follow");
  const follow = spawnHub(["logs", "-f", "--lines", "1"], { configDir });
  const filtered = spawnHub(["logs", "--follow", "--plugin", "foo", "--lines", "1"], { configDir });
  try {
    await follow.waitFor("before follow");
    await filtered.waitFor("before follow");
    await appendPlugins(
      "INFO  [plugin:bar] appended for bar",
      "INFO  [plugin:foo] appended for foo",
    );
    await append("INFO  hub line appended");
    await Deno.writeTextFile(logPath, "INFO  split ", { append: true });
    await Deno.writeTextFile(pluginLogPath, "INFO  [plugin:foo] split ", { append: true });
    await follow.waitFor("hub line appended");
    await filtered.waitFor("appended for foo");
    await Deno.writeTextFile(logPath, "across two writes\n", { append: true });
    await Deno.writeTextFile(pluginLogPath, "across two writes\n", { append: true });
    await follow.waitFor("INFO  split across two writes\n");
    await filtered.waitFor("INFO  [plugin:foo] split across two writes\n");

    assertEquals(printed(follow.stdout()), [
      "INFO  hub line before follow",
      "INFO  hub line appended",
      "INFO  split across two writes",
    ]);
    assertEquals(printed(filtered.stdout()), [
      "INFO  [plugin:foo] before follow",
      "INFO  [plugin:foo] appended for foo",
      "INFO  [plugin:foo] split across two writes",
    ]);
  } finally {
    await follow.stop();
    await filtered.stop();
  }
});

Deno.test("hub logs -f waits for a server.log that does not exist yet", async () => {
  const dir = await tempConfigDir();
  const follow = spawnHub(["logs", "-f"], { configDir: dir });
  try {
    await new Promise((resolve) => setTimeout(resolve, 300));
    assertEquals(follow.stdout(), "");
    await Deno.writeTextFile(join(dir, "server.log"), "INFO  the first line\n");
    await follow.waitFor("INFO  the first line\n");
    assertEquals(follow.stderr(), "");
  } finally {
    await follow.stop();
    await Deno.remove(dir, { recursive: true });
  }
});
