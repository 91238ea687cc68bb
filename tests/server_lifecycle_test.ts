/**
 * End to end: starting and stopping the server (`hub start`, `stop`, `status`, plain `hub`), its
 * port, signals, PID file, `--version`, `--show-config`, and start-up errors.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import {
  exists,
  freePort,
  ROOT,
  runHub,
  spawnHub,
  startHub,
  withTempDir,
} from "./helpers/hub_process.ts";
import { VERSION } from "../protocol/version.ts";

/** True when something answers GET /health on 127.0.0.1:`port`. */
async function answers(port: number): Promise<boolean> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/health`, {
      signal: AbortSignal.timeout(3_000),
    });
    await res.body?.cancel();
    return true;
  } catch {
    return false;
  }
}

/** True while `pid` runs; a zombie (exited, not yet reaped) counts as gone. */
function isAlive(pid: number): boolean {
  try {
    Deno.kill(pid, "SIGCONT");
  } catch {
    return false;
  }
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return true; // no /proc: trust the signal
  }
}

const LONG = 30_000; // runHub timeout for commands that must not start a server

Deno.test("port in use: hub start exits non-zero naming the port and --port", async () => {
  await withTempDir(async (dirA) => {
    const hub = await startHub({ configDir: dirA });
    try {
      await withTempDir(async (dirB) => {
        const r = await runHub(["start", "--port", String(hub.port)], {
          configDir: dirB,
          timeoutMs: LONG,
        });
        assert(r.code !== 0, `exit code ${r.code}`);
        assert(r.stderr.includes(String(hub.port)), r.stderr);
        assert(r.stderr.includes("--port"), r.stderr);
      });
      assert(await answers(hub.port), "the first hub keeps running");
    } finally {
      assertEquals(await hub.stop(), 0);
    }
  });
});

Deno.test("hub start listens on PORT, and --port takes precedence over PORT", async () => {
  await withTempDir(async (dir) => {
    const port = freePort();
    const byEnv = spawnHub(["start"], { configDir: dir, env: { PORT: String(port) } });
    try {
      await byEnv.waitFor(`listening on http://127.0.0.1:${port}`, { stream: "stderr" });
      assert(await answers(port));
    } finally {
      assertEquals(await byEnv.stop(), 0);
    }
    const flagPort = freePort();
    const byFlag = spawnHub(["start", "--port", String(flagPort)], {
      configDir: dir,
      env: { PORT: String(port) },
    });
    try {
      await byFlag.waitFor(`listening on http://127.0.0.1:${flagPort}`, { stream: "stderr" });
    } finally {
      assertEquals(await byFlag.stop(), 0);
    }
  });
});

Deno.test("SIGTERM and SIGINT stop the server with exit code 0 and a Stopped line", async () => {
  await withTempDir(async (dir) => {
    const hub = await startHub({ configDir: dir });
    assertEquals(await hub.stop(), 0);
    const log = await Deno.readTextFile(join(dir, "server.log"));
    assertMatch(log, /Received SIGTERM/);
    assertMatch(log, /INFO +Stopped\n$/);
    assert(!(await answers(hub.port)), "the port is closed after the stop");

    const second = spawnHub(["start", "--port", "0"], { configDir: dir });
    try {
      await second.waitFor("listening on", { stream: "stderr" });
    } finally {
      assertEquals(await second.stop("SIGINT"), 0);
    }
    const after = await Deno.readTextFile(join(dir, "server.log"));
    assertMatch(after, /Received SIGINT/);
    assertEquals(after.match(/INFO +Stopped/g)?.length, 2);
  });
});

Deno.test("background start → status → status --json → stop", async () => {
  await withTempDir(async (dir) => {
    const port = String(freePort());
    const pidFile = join(dir, "server.pid");
    let pid: number | undefined;
    try {
      const started = Date.now();
      const start = await runHub(["start", "--background", "--port", port], {
        configDir: dir,
        timeoutMs: LONG,
      });
      assertEquals(start.code, 0, start.stderr);
      assert(Date.now() - started < 15_000, "background start returns within its 15 s limit");
      const pidText = (await Deno.readTextFile(pidFile)).trim();
      pid = JSON.parse(pidText).pid as number; // {pid, startTime, port, configDir, version}
      assert(Number.isInteger(pid), pidText);
      assert(start.stdout.includes(`pid ${pid}`), start.stdout);
      assertMatch(start.stdout, /First run/, "a first background start prints the setup text");
      assert(start.stdout.includes(`http://127.0.0.1:${port}/mcp/gateway`), start.stdout);
      assert(isAlive(pid));

      const status = await runHub(["status", "--port", port], { configDir: dir });
      assertEquals(status.code, 0, status.stderr);
      assertMatch(status.stdout, /running/);
      const json = await runHub(["status", "--json", "--port", port], { configDir: dir });
      assertEquals(json.code, 0, json.stderr);
      const health = JSON.parse(json.stdout);
      assertEquals(health.version, VERSION);
      assertEquals(health.mode, "production");

      const twice = await runHub(["start", "--background", "--port", port], {
        configDir: dir,
        timeoutMs: LONG,
      });
      assert(twice.code !== 0, "a second background start on the same port fails");
      assertMatch(twice.stderr, /already running/);
      const otherPort = String(freePort());
      const other = await runHub(["start", "--background", "--port", otherPort], {
        configDir: dir,
        timeoutMs: LONG,
      });
      assert(other.code !== 0, "a second background hub from one config dir would be orphaned");
      assertMatch(other.stderr, new RegExp(`already running \\(pid ${pid}`));

      const stop = await runHub(["stop", "--port", port], { configDir: dir });
      assertEquals(stop.code, 0, stop.stderr);
      assert(!(await exists(pidFile)), "server.pid is removed");
      assert(!(await answers(Number(port))), "the port no longer answers");
      assert(!isAlive(pid), `pid ${pid} is gone`);
      assertMatch(await Deno.readTextFile(join(dir, "server.log")), /Stopped/);
    } finally {
      if (pid !== undefined && isAlive(pid)) Deno.kill(pid, "SIGKILL");
    }
  });
});

Deno.test("hub stop refuses a foreground hub and says it was not started with --background", async () => {
  await withTempDir(async (dir) => {
    const hub = await startHub({ configDir: dir });
    try {
      const r = await runHub(["stop", "--port", String(hub.port)], { configDir: dir });
      assert(r.code !== 0, `exit code ${r.code}`);
      assertMatch(r.stderr, /not started with "hub start --background"/);
      assert(await answers(hub.port), "the foreground hub is still running");
    } finally {
      assertEquals(await hub.stop(), 0);
    }
  });
});

Deno.test("hub stop with nothing running exits 0 with nothing to stop", async () => {
  await withTempDir(async (dir) => {
    const r = await runHub(["stop", "--port", String(freePort())], { configDir: dir });
    assertEquals(r.code, 0, r.stderr);
    assertMatch(r.stdout, /nothing to stop/);
  });
});

Deno.test("hub stop removes a stale server.pid (pid 999999)", async () => {
  await withTempDir(async (dir) => {
    const pidFile = join(dir, "server.pid");
    await Deno.writeTextFile(pidFile, "999999\n");
    const r = await runHub(["stop", "--port", String(freePort())], { configDir: dir });
    assertEquals(r.code, 0, r.stderr);
    assertMatch(r.stdout, /stale/);
    assert(!(await exists(pidFile)), "the stale server.pid is removed");
  });
});

Deno.test({
  name: "hub stop never signals a live process that is not a hub (recycled pid in server.pid)",
  fn: async () => {
    await withTempDir(async (dir) => {
      const pidFile = join(dir, "server.pid");
      const bystander = new Deno.Command("sleep", { args: ["30"], stdout: "null" }).spawn();
      let bystanderExit: Deno.CommandStatus | undefined;
      const status = bystander.status.then((s) => (bystanderExit = s));
      try {
        await Deno.writeTextFile(pidFile, `${bystander.pid}\n`);
        const r = await runHub(["stop", "--port", String(freePort())], { configDir: dir });
        assertEquals(r.code, 0, r.stderr);
        await new Promise((resolve) => setTimeout(resolve, 200));
        assertEquals(bystanderExit, undefined, `hub stop killed pid ${bystander.pid}: ${r.stdout}`);
        assert(!(await exists(pidFile)), "the server.pid naming a non-hub process is removed");
      } finally {
        if (!bystanderExit) bystander.kill("SIGKILL");
        await status;
      }
    });
  },
});

Deno.test("hub status and plain hub: exit 1 with a hint when nothing runs, a summary when it does", async () => {
  await withTempDir(async (dir) => {
    const port = String(freePort());
    for (const args of [["status", "--port", port], [], ["--port", port]]) {
      const r = await runHub(args, { configDir: dir, env: { HUB_PORT: port } });
      assertEquals(r.code, 1, `hub ${args.join(" ")}`);
      assertMatch(r.stderr, /not running/);
      assertMatch(r.stderr, /hub start/);
    }
    const hub = await startHub({ configDir: dir });
    try {
      const plain = await runHub([], { configDir: dir, env: { HUB_PORT: String(hub.port) } });
      assertEquals(plain.code, 0, plain.stderr);
      assertMatch(plain.stdout, new RegExp(`hub ${VERSION}.*running on .*:${hub.port}`));
      const status = await runHub(["status"], {
        configDir: dir,
        env: { HUB_PORT: String(hub.port) },
      });
      assertEquals(plain.stdout.split("\n")[0], status.stdout.split("\n")[0]);
    } finally {
      assertEquals(await hub.stop(), 0);
    }
  });
});

Deno.test("hub --version and -V print the version; --help lists the commands", async () => {
  await withTempDir(async (dir) => {
    for (const flag of ["--version", "-V"]) {
      const r = await runHub([flag], { configDir: dir });
      assertEquals(r.code, 0);
      assertEquals(r.stdout.trim(), VERSION);
    }
    const help = await runHub(["--help"], { configDir: dir });
    assertEquals(help.code, 0);
    for (const command of ["start", "stop", "status", "config", "logs"]) {
      assertMatch(help.stdout, new RegExp(`\\b${command}\\b`));
    }
  });
});

Deno.test("hub start --show-config prints /mcp and /mcp/gateway with the Bearer secret, no server", async () => {
  await withTempDir(async (dir) => {
    const port = freePort();
    const r = await runHub(["start", "--show-config", "--port", String(port)], {
      configDir: dir,
      timeoutMs: LONG,
    });
    assertEquals(r.code, 0, r.stderr);
    const { secret } = JSON.parse(await Deno.readTextFile(join(dir, "extension", "auth.json")));
    assert(r.stdout.includes(`"http://127.0.0.1:${port}/mcp"`), r.stdout);
    assert(r.stdout.includes(`"http://127.0.0.1:${port}/mcp/gateway"`), r.stdout);
    assertEquals(r.stdout.split(`Bearer ${secret}`).length - 1, 2, "both blocks carry the secret");
    // The stdio block names a command that exists: deno with this checkout's main.ts, absolute.
    const stdio = JSON.parse(
      r.stdout.slice(r.stdout.lastIndexOf('{\n  "mcpServers"'))
        .replace(/\n\n[\s\S]*$/, ""),
    ).mcpServers.hub;
    assertEquals(stdio.command, Deno.execPath());
    assertEquals(stdio.args.slice(-5), [
      join(ROOT, "main.ts"),
      "start",
      "--stdio",
      "--port",
      `${port}`,
    ]);
    assertEquals(stdio.env, { HUB_CONFIG_DIR: dir });
    assert(!(await answers(port)), "--show-config starts no server");
    assert(!(await exists(join(dir, "server.log"))), "and writes no server log");

    const again = await runHub(["start", "--show-config", "--port", String(port)], {
      configDir: dir,
      timeoutMs: LONG,
    });
    assert(again.stdout.includes(`Bearer ${secret}`), "the secret is kept, not regenerated");
  });
});

Deno.test("HUB_LOG_LEVEL=bogus: hub start fails naming the valid levels", async () => {
  await withTempDir(async (dir) => {
    const r = await runHub(["start", "--port", "0"], {
      configDir: dir,
      env: { HUB_LOG_LEVEL: "bogus" },
      timeoutMs: LONG,
    });
    assert(r.code !== 0, `exit code ${r.code}`);
    assertMatch(r.stderr, /HUB_LOG_LEVEL/);
    for (const level of ["debug", "info", "warn", "error", "silent"]) {
      assert(r.stderr.includes(level), `stderr names ${level}: ${r.stderr}`);
    }
    assert(!/\n\s+at /.test(r.stderr), `no stack trace: ${r.stderr}`);
    assert(!(await exists(join(dir, "config.json"))), "nothing is written before the check");
  });
});

Deno.test("a corrupt config.json stops hub start with file, line and column; file unchanged", async () => {
  await withTempDir(async (dir) => {
    const path = join(dir, "config.json");
    const broken = '{\n  "port": 9515,\n  oops\n}\n';
    await Deno.writeTextFile(path, broken);
    const r = await runHub(["start", "--port", "0"], { configDir: dir, timeoutMs: LONG });
    assert(r.code !== 0, `exit code ${r.code}`);
    assert(r.stderr.includes(path), r.stderr);
    assertMatch(r.stderr, /line 3, column 3/);
    assertEquals(await Deno.readTextFile(path), broken, "the broken file is never overwritten");

    const invalid = '{ "port": "nine" }\n';
    await Deno.writeTextFile(path, invalid);
    const r2 = await runHub(["start", "--port", "0"], { configDir: dir, timeoutMs: LONG });
    assert(r2.code !== 0, `exit code ${r2.code}`);
    assert(r2.stderr.includes(path), r2.stderr);
    assertMatch(r2.stderr, /port/);
    assertEquals(await Deno.readTextFile(path), invalid);
  });
});

Deno.test("an unknown command is an error that lists the commands", async () => {
  await withTempDir(async (dir) => {
    const r = await runHub(["strat"], { configDir: dir, timeoutMs: LONG });
    assertEquals(r.code, 1);
    assertMatch(
      r.stderr,
      /Unknown command "strat"\. Commands: start, stop, status, config, plugin, tool, audit, logs/,
    );
  });
});

Deno.test("first run on --port 0 prints the MCP config with the port it really listens on", async () => {
  await withTempDir(async (dir) => {
    const hub = await startHub({ configDir: dir, port: 0 });
    try {
      for (let i = 0; i < 100 && !hub.output().includes("/mcp/gateway"); i++) {
        await new Promise((r) => setTimeout(r, 20));
      }
      assert(hub.output().includes(`http://127.0.0.1:${hub.port}/mcp/gateway`), hub.output());
      assert(!hub.output().includes("127.0.0.1:0/"), hub.output());
    } finally {
      await hub.stop();
    }
  });
});
