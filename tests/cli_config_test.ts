/**
 * End to end: every `hub config` subcommand, with good and bad values, on temp config dirs; and
 * how a running hub picks up `config set` and `config rotate-secret`.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import {
  freePort,
  runHub,
  type RunningHub,
  type RunResult,
  startHub,
  tempConfigDir,
  withTempDir,
} from "./helpers/hub_process.ts";

/** A port nothing listens on, so commands that notify a running hub find none. */
const NO_HUB = { HUB_PORT: String(freePort()) };

let hub: RunningHub;
let hubDir = "";

Deno.test.beforeAll(async () => {
  hubDir = await tempConfigDir();
  hub = await startHub({ configDir: hubDir });
});

Deno.test.afterAll(async () => {
  try {
    assertEquals(await hub?.stop(), 0);
  } finally {
    await Deno.remove(hubDir, { recursive: true });
  }
});

/**
 * `hub config <args>` in `dir` with no hub to notify. `deno task` sets INIT_CWD; an inherited one
 * would move relative paths out of `cwd`, so it is cleared unless `initCwd` is given.
 */
function config(
  dir: string,
  args: string[],
  cwd?: string,
  initCwd = "",
): Promise<RunResult> {
  return runHub(["config", ...args], {
    configDir: dir,
    env: { ...NO_HUB, INIT_CWD: initCwd },
    cwd,
  });
}

async function set(dir: string, key: string, value?: string, extra: string[] = []) {
  const r = await config(dir, ["set", key, ...(value === undefined ? [] : [value]), ...extra]);
  assertEquals(r.code, 0, `config set ${key} ${value}: ${r.stderr}`);
  return r;
}

/** A `config set` that must fail with exit 1 and leave config.json as it was. */
async function setFails(dir: string, key: string, value?: string): Promise<RunResult> {
  const before = await readText(join(dir, "config.json"));
  const r = await config(dir, ["set", key, ...(value === undefined ? [] : [value])]);
  assertEquals(r.code, 1, `config set ${key} ${value} should fail: ${r.stdout}${r.stderr}`);
  assertEquals(await readText(join(dir, "config.json")), before, "config.json is unchanged");
  return r;
}

async function readText(path: string): Promise<string | undefined> {
  try {
    return await Deno.readTextFile(path);
  } catch {
    return undefined;
  }
}

async function fileConfig(dir: string) {
  return JSON.parse(await Deno.readTextFile(join(dir, "config.json")));
}

async function secretOf(dir: string): Promise<string> {
  return JSON.parse(await Deno.readTextFile(join(dir, "extension", "auth.json"))).secret;
}

/** Creates config.json and the secret the way a user would: `hub start --show-config`. */
async function setUp(dir: string): Promise<string> {
  const r = await runHub(["start", "--show-config"], { configDir: dir, env: NO_HUB });
  assertEquals(r.code, 0, r.stderr);
  return await secretOf(dir);
}

Deno.test("config path prints <configDir>/config.json", async () => {
  await withTempDir(async (dir) => {
    const r = await config(dir, ["path"]);
    assertEquals(r.code, 0);
    assertEquals(r.stdout.trim(), join(dir, "config.json"));
  });
});

Deno.test("config show redacts the secret; --show-secret and --json; get is an alias", async () => {
  await withTempDir(async (dir) => {
    const fresh = await config(dir, ["show"]);
    assertEquals(fresh.code, 0, fresh.stderr);
    assertMatch(fresh.stdout, /not created yet/);

    const secret = await setUp(dir);
    const show = await config(dir, ["show"]);
    assertEquals(show.code, 0, show.stderr);
    assert(!show.stdout.includes(secret), "the full secret is redacted");
    assert(show.stdout.includes(secret.slice(0, 8)), "its first 8 characters are shown");
    assert(!show.stdout.includes(secret.slice(0, 9)), "and no more");
    assert(show.stdout.includes(join(dir, "config.json")));

    const full = await config(dir, ["show", "--show-secret"]);
    assert(full.stdout.includes(secret), "--show-secret prints it");

    const json = await config(dir, ["show", "--json"]);
    const parsed = JSON.parse(json.stdout);
    assertEquals(parsed.path, join(dir, "config.json"));
    assertEquals(parsed.config.port, 9515);
    assertEquals(parsed.config.localPlugins, []);
    assert(!json.stdout.includes(secret));
    const jsonSecret = JSON.parse((await config(dir, ["show", "--json", "--show-secret"])).stdout);
    assertEquals(jsonSecret.secret, secret);

    const get = await config(dir, ["get"]);
    assertEquals(get.code, 0);
    assertEquals(get.stdout, show.stdout);
  });
});

Deno.test("config set tool-permission.<plugin>.<tool>: off|ask|auto persist, bad values exit 1", async () => {
  await withTempDir(async (dir) => {
    await setUp(dir);
    await set(dir, "tool-permission.my-plugin.send_message", "ask");
    await set(dir, "tool-permission.browser.navigate", "auto");
    const cfg = await fileConfig(dir);
    assertEquals(cfg.permissions["my-plugin"], {
      permission: "off",
      tools: { send_message: "ask" },
      unboundGrant: true, // my-plugin is not installed: the grant belongs to no source
    });
    assertEquals(cfg.permissions.browser.tools.navigate, "auto");

    const bad = await setFails(dir, "tool-permission.my-plugin.send_message", "maybe");
    for (const value of ["off", "ask", "auto"]) assert(bad.stderr.includes(value), bad.stderr);
    await setFails(dir, "tool-permission.my-plugin.my-plugin__send_message", "ask");
    await setFails(dir, "tool-permission.Bad_Plugin.x", "ask");
    await setFails(dir, "tool-permission.my-plugin", "ask");
  });
});

Deno.test("config set plugin-permission.<plugin>: stores the permission, rejects bad names", async () => {
  await withTempDir(async (dir) => {
    await setUp(dir);
    await set(dir, "plugin-permission.my-plugin", "auto");
    await set(dir, "tool-permission.my-plugin.read", "off");
    await set(dir, "plugin-permission.my-plugin", "ask");
    assertEquals((await fileConfig(dir)).permissions["my-plugin"], {
      permission: "ask",
      tools: { read: "off" },
      unboundGrant: true,
    });
    const bad = await setFails(dir, "plugin-permission.BadName", "auto");
    assertMatch(bad.stderr, /BadName/);
    await setFails(dir, "plugin-permission.my-plugin", "AUTO");
  });
});

Deno.test("config set port: 1..65535 accepted; 0, 65536 and abc rejected", async () => {
  await withTempDir(async (dir) => {
    await setUp(dir);
    await set(dir, "port", "1");
    assertEquals((await fileConfig(dir)).port, 1);
    await set(dir, "port", "65535");
    assertEquals((await fileConfig(dir)).port, 65535);
    for (const bad of ["0", "65536", "abc", "80.5", ""]) {
      const r = await setFails(dir, "port", bad);
      assertMatch(r.stderr, /1 to 65535/);
    }
  });
});

Deno.test("config set debugger: off and auto persist; any other value exits 1 naming both", async () => {
  await withTempDir(async (dir) => {
    await setUp(dir);
    assertEquals((await fileConfig(dir)).debugger, "auto", "a new config.json says the default");
    const off = await set(dir, "debugger", "off");
    assertMatch(off.stdout, /debugger = off/);
    assertEquals((await fileConfig(dir)).debugger, "off");
    await set(dir, "debugger", "auto");
    assertEquals((await fileConfig(dir)).debugger, "auto");
    for (const bad of ["on", "false", ""]) {
      const r = await setFails(dir, "debugger", bad);
      assertMatch(r.stderr, /debugger must be auto or off.*hub config set debugger off/s);
    }
  });
});

Deno.test("config set localPlugins.add/remove: absolute, relative to cwd, --force, unknown", async () => {
  await withTempDir(async (dir) => {
    await setUp(dir);
    const pluginDir = join(dir, "plugins", "one");
    await Deno.mkdir(pluginDir, { recursive: true });
    await set(dir, "localPlugins.add", pluginDir);
    await set(dir, "localPlugins.add", pluginDir); // twice: stored once
    assertEquals((await fileConfig(dir)).localPlugins, [pluginDir]);

    await Deno.mkdir(join(dir, "plugins", "two"));
    const rel = await config(dir, ["set", "localPlugins.add", "./two"], join(dir, "plugins"));
    assertEquals(rel.code, 0, rel.stderr);
    const two = join(dir, "plugins", "two");
    assertEquals((await fileConfig(dir)).localPlugins, [pluginDir, two]);

    const missing = join(dir, "does-not-exist");
    const refused = await setFails(dir, "localPlugins.add", missing);
    assertMatch(refused.stderr, /--force/);
    await set(dir, "localPlugins.add", missing, ["--force"]);
    assertEquals((await fileConfig(dir)).localPlugins, [pluginDir, two, missing]);

    await set(dir, "localPlugins.remove", pluginDir);
    const relRemove = await config(
      dir,
      ["set", "localPlugins.remove", "two"],
      join(dir, "plugins"),
    );
    assertEquals(relRemove.code, 0, relRemove.stderr);
    assertEquals((await fileConfig(dir)).localPlugins, [missing]);
    const unknown = await setFails(dir, "localPlugins.remove", join(dir, "never-added"));
    assertMatch(unknown.stderr, /not in localPlugins/);
  });
});

Deno.test("config set localPlugins.add/remove: relative paths resolve against INIT_CWD (deno task --cwd)", async () => {
  await withTempDir(async (dir) => {
    await setUp(dir);
    // `deno task --cwd <hub>` runs in the hub checkout; INIT_CWD is the folder the user is in.
    const checkout = join(dir, "hub-checkout");
    const user = join(dir, "user");
    await Deno.mkdir(join(checkout, "my-app"), { recursive: true });
    await Deno.mkdir(join(user, "my-app"), { recursive: true });
    const added = await config(dir, ["set", "localPlugins.add", "./my-app"], checkout, user);
    assertEquals(added.code, 0, added.stderr);
    assertEquals((await fileConfig(dir)).localPlugins, [join(user, "my-app")]);
    const removed = await config(dir, ["set", "localPlugins.remove", "my-app"], checkout, user);
    assertEquals(removed.code, 0, removed.stderr);
    assertEquals((await fileConfig(dir)).localPlugins, []);
  });
});

Deno.test("config set setting.<plugin>.<key>: JSON values parsed, text kept, empty removes", async () => {
  await withTempDir(async (dir) => {
    await setUp(dir);
    await set(dir, "setting.my-plugin.enabled", "true");
    await set(dir, "setting.my-plugin.count", "3");
    await set(dir, "setting.my-plugin.urls", '{"a":"https://a.example"}');
    await set(dir, "setting.my-plugin.name", "hello world");
    await set(dir, "setting.my-plugin.dotted.key", "x");
    assertEquals((await fileConfig(dir)).settings, {
      "my-plugin": {
        enabled: true,
        count: 3,
        urls: { a: "https://a.example" },
        name: "hello world",
        "dotted.key": "x",
      },
    });
    await set(dir, "setting.my-plugin.name", "");
    const after = (await fileConfig(dir)).settings["my-plugin"];
    assert(!("name" in after), "an empty value removes the key");
    assertEquals(after.count, 3);
    await setFails(dir, "setting.Bad.key", "1");
  });
});

Deno.test("config set: unknown key lists the valid keys; a missing value is an error", async () => {
  await withTempDir(async (dir) => {
    await setUp(dir);
    const unknown = await setFails(dir, "colour", "blue");
    for (const key of ["tool-permission.", "plugin-permission.", "port", "localPlugins.add"]) {
      assert(unknown.stderr.includes(key), `lists ${key}: ${unknown.stderr}`);
    }
    for (const key of ["port", "plugin-permission.my-plugin", "setting.my-plugin.k"]) {
      const r = await setFails(dir, key);
      assertMatch(r.stderr, /needs a value/);
    }
  });
});

Deno.test("config set keeps mode 0600, keeps unknown keys and warns about them", async () => {
  await withTempDir(async (dir) => {
    await set(dir, "port", "4000"); // creates the file
    assertEquals((await Deno.stat(join(dir, "config.json"))).mode! & 0o777, 0o600);

    const cfg = await fileConfig(dir);
    cfg.futureFeature = { keep: ["me"] };
    await Deno.writeTextFile(join(dir, "config.json"), JSON.stringify(cfg, null, 2));
    await Deno.chmod(join(dir, "config.json"), 0o600);
    const r = await set(dir, "port", "4001");
    assertMatch(r.stderr, /warning: .*unknown key "futureFeature"/);
    const after = await fileConfig(dir);
    assertEquals(after.futureFeature, { keep: ["me"] });
    assertEquals(after.port, 4001);
    assertEquals((await Deno.stat(join(dir, "config.json"))).mode! & 0o777, 0o600);
    const left = [...Deno.readDirSync(dir)].map((e) => e.name);
    assertEquals(left, ["config.json"], "no temp or lock files are left behind");
  });
});

const BROKEN_CONFIG = '{ "port": 9515, }\n';

Deno.test("a corrupt config.json: show and set fail naming the file and position", async () => {
  await withTempDir(async (dir) => {
    const path = join(dir, "config.json");
    await Deno.writeTextFile(path, BROKEN_CONFIG);
    for (const args of [["show"], ["set", "port", "4000"]]) {
      const r = await config(dir, args);
      assertEquals(r.code, 1, `config ${args.join(" ")}`);
      assert(r.stderr.includes(path), r.stderr);
      assertMatch(r.stderr, /line 1, column \d+/);
      assertMatch(r.stderr, /hub config reset --confirm/, "the message names the fix");
      assertEquals(await Deno.readTextFile(path), BROKEN_CONFIG, "the file is not overwritten");
    }
    const withPort = await runHub(["config", "reset", "--confirm", "--port", NO_HUB.HUB_PORT], {
      configDir: dir,
    });
    assertEquals(withPort.code, 0, withPort.stderr);
    assertEquals(await readText(path), undefined);
  });
});

Deno.test({
  name: "a corrupt config.json: the advertised fix, hub config reset --confirm, works",
  fn: async () => {
    await withTempDir(async (dir) => {
      await Deno.writeTextFile(join(dir, "config.json"), BROKEN_CONFIG);
      const r = await config(dir, ["reset", "--confirm"]);
      assertEquals(r.code, 0, r.stderr);
      assertEquals(await readText(join(dir, "config.json")), undefined);
      await set(dir, "port", "4000");
      assertEquals((await fileConfig(dir)).port, 4000);
    });
  },
});

Deno.test("concurrent config set from several processes lose no update", async () => {
  await withTempDir(async (dir) => {
    await setUp(dir);
    const keys = Array.from({ length: 8 }, (_, i) => `k${i}`);
    const results = await Promise.all(
      keys.map((k, i) => config(dir, ["set", `setting.race.${k}`, String(i)])),
    );
    for (const r of results) assertEquals(r.code, 0, r.stderr);
    assertEquals(
      (await fileConfig(dir)).settings.race,
      Object.fromEntries(keys.map((k, i) => [k, i])),
    );
  });
});

Deno.test("config reset: refuses without --confirm; deletes config.json but not auth.json", async () => {
  await withTempDir(async (dir) => {
    await setUp(dir);
    await set(dir, "port", "4242");
    const configText = await Deno.readTextFile(join(dir, "config.json"));
    const authText = await Deno.readTextFile(join(dir, "extension", "auth.json"));

    const refused = await config(dir, ["reset"]);
    assert(refused.code !== 0, "reset without --confirm fails");
    assertMatch(refused.stderr, /--confirm/);
    assertEquals(await Deno.readTextFile(join(dir, "config.json")), configText);

    const reset = await config(dir, ["reset", "--confirm"]);
    assertEquals(reset.code, 0, reset.stderr);
    assertEquals(await readText(join(dir, "config.json")), undefined, "config.json is deleted");
    assertEquals(await Deno.readTextFile(join(dir, "extension", "auth.json")), authText);
    assertEquals((await config(dir, ["reset", "--confirm"])).code, 0, "resetting twice is fine");
  });
});

Deno.test("config rotate-secret: refuses without --confirm; with it writes a new 0600 secret", async () => {
  await withTempDir(async (dir) => {
    const old = await setUp(dir);
    const refused = await config(dir, ["rotate-secret"]);
    assert(refused.code !== 0, "rotate-secret without --confirm fails");
    assertMatch(refused.stderr, /--confirm/);
    assertEquals(await secretOf(dir), old);

    const rotated = await config(dir, ["rotate-secret", "--confirm"]);
    assertEquals(rotated.code, 0, rotated.stderr);
    const secret = await secretOf(dir);
    assertMatch(secret, /^[0-9a-f]{64}$/);
    assert(secret !== old);
    assertEquals((await Deno.stat(join(dir, "extension", "auth.json"))).mode! & 0o777, 0o600);
  });
});

async function statusWith(path: string, secret: string): Promise<number> {
  const res = await fetch(`${hub.url}${path}`, { headers: { authorization: `Bearer ${secret}` } });
  await res.body?.cancel();
  return res.status;
}

async function reloadCount(): Promise<number> {
  const res = await fetch(`${hub.url}/health`, {
    headers: { authorization: `Bearer ${await secretOf(hubDir)}` },
  });
  assertEquals(res.status, 200);
  return (await res.json()).reloadCount;
}

Deno.test("config rotate-secret --confirm: the running hub accepts the new secret, not the old", async () => {
  const old = await secretOf(hubDir);
  assertEquals(await statusWith("/ws-info", old), 200);
  const r = await runHub(["config", "rotate-secret", "--confirm", "--port", String(hub.port)], {
    configDir: hubDir,
  });
  assertEquals(r.code, 0, r.stderr);
  assertMatch(r.stdout, /now uses the new secret/);
  const secret = await secretOf(hubDir);
  assertMatch(secret, /^[0-9a-f]{64}$/);
  assert(secret !== old);
  assertEquals(await statusWith("/ws-info", secret), 200);
  assertEquals(await statusWith("/ws-info", old), 401);
});

Deno.test("config set while a hub runs makes it reload", async () => {
  const before = await reloadCount();
  const r = await runHub(
    ["config", "set", "plugin-permission.my-plugin", "auto", "--port", String(hub.port)],
    { configDir: hubDir },
  );
  assertEquals(r.code, 0, r.stderr);
  assertMatch(r.stdout, /has reloaded/);
  assertEquals(await reloadCount(), before + 1);

  const viaEnv = await runHub(["config", "set", "setting.my-plugin.k", "v"], {
    configDir: hubDir,
    env: { HUB_PORT: String(hub.port) },
  });
  assertEquals(viaEnv.code, 0, viaEnv.stderr);
  assertEquals(await reloadCount(), before + 2, "HUB_PORT finds the hub too");
});

Deno.test("config rotate-secret --confirm repairs a broken auth.json (the fix its error names)", async () => {
  await withTempDir(async (dir) => {
    await Deno.mkdir(join(dir, "extension"), { recursive: true });
    await Deno.writeTextFile(join(dir, "extension", "auth.json"), '{"secret": "short"}');
    const show = await runHub(["config", "show"], { configDir: dir });
    assertMatch(show.stderr, /rotate-secret --confirm/);
    const r = await runHub(["config", "rotate-secret", "--confirm"], {
      configDir: dir,
      env: NO_HUB,
    });
    assertEquals(r.code, 0, r.stderr);
    const auth = JSON.parse(await Deno.readTextFile(join(dir, "extension", "auth.json")));
    assertMatch(auth.secret, /^[0-9a-f]{64}$/);
  });
});
