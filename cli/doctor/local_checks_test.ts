import { join } from "node:path";
import { assertEquals, assertMatch } from "../../tests/helpers/assert.ts";
import { withTempDir } from "../../tests/helpers/hub_process.ts";
import {
  configCheck,
  extensionInstalledCheck,
  extensionVersionCheck,
  runtimeCheck,
  secretCheck,
} from "./local_checks.ts";

const SECRET = "e".repeat(64);

Deno.test("runtime: Deno 2 and later pass, Deno 1 is fatal with the upgrade for the install", () => {
  assertEquals(runtimeCheck("2.0.0", false).status, "pass");
  assertEquals(runtimeCheck("10.1.2", false).status, "pass");
  const old = runtimeCheck("1.46.3", false);
  assertEquals(old.status, "error");
  assertMatch(old.message, /Deno 1\.46\.3 is too old/);
  assertEquals(old.fix, "deno upgrade");
  assertEquals(runtimeCheck("1.0.0", true).fix, "hub update");
  assertEquals(runtimeCheck("garbage", false).status, "error");
});

Deno.test("config: missing is a warning with defaults, broken is fatal with the parser's text", async () => {
  await withTempDir(async (dir) => {
    const path = join(dir, "config.json");
    const missing = await configCheck(path);
    assertEquals(missing.check.status, "warn");
    assertEquals(missing.config?.port, 9515);
    await Deno.writeTextFile(path, '{ "port": 9600 }');
    const good = await configCheck(path);
    assertEquals([good.check.status, good.config?.port], ["pass", 9600]);
    await Deno.writeTextFile(path, '{ "port": 9600, }');
    const broken = await configCheck(path);
    assertEquals(broken.check.status, "error");
    assertEquals(broken.config, undefined);
    assertMatch(broken.check.message, /invalid JSON at line 1, column 17/);
    assertMatch(broken.check.fix!, /hub config reset --confirm/);
    await Deno.writeTextFile(path, '{ "port": "x" }');
    assertMatch((await configCheck(path)).check.message, /Cannot use .*config\.json/);
  });
});

Deno.test("secret: missing and invalid are fatal; a loose mode warns; the secret never shows", async () => {
  await withTempDir(async (dir) => {
    const path = join(dir, "auth.json");
    const missing = await secretCheck(path);
    assertEquals([missing.check.status, missing.check.fix], ["error", "hub start"]);
    await Deno.writeTextFile(path, JSON.stringify({ secret: "short" }));
    const invalid = await secretCheck(path);
    assertEquals([invalid.check.status, invalid.check.fix], [
      "error",
      "hub config rotate-secret --confirm",
    ]);
    assertMatch(invalid.check.message, /64 hex characters/);
    await Deno.writeTextFile(path, JSON.stringify({ secret: SECRET }), { mode: 0o600 });
    await Deno.chmod(path, 0o600);
    const good = await secretCheck(path, "linux");
    assertEquals([good.check.status, good.secret], ["pass", SECRET]);
    await Deno.chmod(path, 0o644);
    const loose = await secretCheck(path, "linux");
    assertEquals([loose.check.status, loose.check.fix], ["warn", `chmod 600 ${path}`]);
    assertMatch(loose.check.message, /mode 0644/);
    assertEquals(loose.secret, SECRET);
    assertEquals((await secretCheck(path, "windows")).check.status, "pass");
    for (const c of [good, loose]) assertEquals(JSON.stringify(c.check).includes(SECRET), false);
  });
});

Deno.test("extension: installed manifest and its version against the CLI", async () => {
  await withTempDir(async (dir) => {
    const missing = await extensionInstalledCheck(dir);
    assertEquals(missing.check.status, "error");
    assertEquals(extensionVersionCheck(missing.manifest, "1.0.0").status, "skip");
    await Deno.writeTextFile(join(dir, "manifest.json"), "{ nope");
    assertEquals((await extensionInstalledCheck(dir)).check.status, "error");
    await Deno.writeTextFile(
      join(dir, "manifest.json"),
      JSON.stringify({ version: "1.0.0", version_name: "1.0.0-dev" }),
    );
    const named = await extensionInstalledCheck(dir);
    assertEquals(named.check.status, "pass");
    assertEquals(named.manifest, { version: "1.0.0-dev" });
    const mismatch = extensionVersionCheck(named.manifest, "1.0.0");
    assertEquals(mismatch.status, "error");
    assertEquals(mismatch.message, "the installed extension is 1.0.0-dev, the CLI 1.0.0");
    assertMatch(mismatch.fix!, /hub stop && hub start/);
    assertEquals(extensionVersionCheck({ version: "1.0.0" }, "1.0.0").status, "pass");
  });
});

Deno.test("a folder or an oversized file where a checked file should be: an error, never a crash", async () => {
  await withTempDir(async (dir) => {
    await Deno.mkdir(join(dir, "config.json"));
    await Deno.mkdir(join(dir, "auth.json"));
    await Deno.mkdir(join(dir, "manifest.json"));
    const config = await configCheck(join(dir, "config.json"));
    const secret = await secretCheck(join(dir, "auth.json"), "linux");
    const extension = await extensionInstalledCheck(dir);
    for (const c of [config.check, secret.check, extension.check]) {
      assertEquals(c.status, "error", c.id);
      assertMatch(c.message, /is a folder, not a regular file/);
      assertMatch(c.fix!, /^move it away \(mv /);
    }
    assertMatch(extension.check.fix!, /hub stop && hub start/);
    const big = join(dir, "big.json");
    await Deno.writeTextFile(big, `{"x": "${"a".repeat(2 * 1024 * 1024)}"}`);
    const large = await configCheck(big);
    assertEquals(large.check.status, "error");
    assertMatch(large.check.message, /over the limit of 1 MB/);
  });
});
