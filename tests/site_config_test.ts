/**
 * End to end: site permissions as a person changes them. `hub config set site-permission.<pattern>`,
 * `defaultSitePermission` and `agentTabsOnly` on a temp config dir (canonical keys, bad patterns
 * refused with nothing written, `remove`, `config show`); the side panel's `/ws` requests
 * (`config.setSitePermission`, `config.setSiteDefaults`) on a running hub, persisted and sent in
 * `sync.full`; and a CLI change reaching the connected extension.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { freePort, runHub, type RunResult, withTempDir } from "./helpers/hub_process.ts";
import { withFixture } from "./helpers/pipeline_fixture.ts";

/** A port nothing listens on, so commands that notify a running hub find none. */
const NO_HUB = { HUB_PORT: String(freePort()) };

function config(dir: string, args: string[], port?: number): Promise<RunResult> {
  const env = port === undefined ? NO_HUB : { HUB_PORT: String(port) };
  return runHub(["config", ...args], { configDir: dir, env: { ...env, INIT_CWD: "" } });
}

async function set(dir: string, key: string, value: string, port?: number) {
  const r = await config(dir, ["set", key, value], port);
  assertEquals(r.code, 0, `config set ${key} ${value}: ${r.stderr}`);
  return r;
}

async function sites(dir: string) {
  const file = JSON.parse(await Deno.readTextFile(join(dir, "config.json")));
  return {
    rules: file.sitePermissions,
    defaultSitePermission: file.defaultSitePermission,
    agentTabsOnly: file.agentTabsOnly,
  };
}

Deno.test("config set site-permission.<pattern>: each form stored canonically, shown, removed", async () => {
  await withTempDir(async (dir) => {
    const saved = await set(dir, "site-permission.Bank.Example.COM", "off");
    assertMatch(saved.stdout, /site permission of bank\.example\.com = off/);
    await set(dir, "site-permission.*.example.org", "auto");
    await set(dir, "site-permission.127.0.0.1:8080", "ask");
    await set(dir, "site-permission.https://app.example.com:8443", "auto");
    assertEquals((await sites(dir)).rules, {
      "bank.example.com": "off",
      "*.example.org": "auto",
      "127.0.0.1:8080": "ask",
      "https://app.example.com:8443": "auto",
    });
    const show = await config(dir, ["show"]);
    assertEquals(show.code, 0, show.stderr);
    assertMatch(show.stdout, /Sites: +ask for sites without a rule; agentTabsOnly false; 4 rules/);
    assertMatch(show.stdout, /\n {2}https:\/\/app\.example\.com:8443 +auto\n/);
    assertMatch(show.stdout, /\n {2}bank\.example\.com +off\n/);

    await set(dir, "site-permission.bank.example.com", "remove");
    assertEquals(Object.keys((await sites(dir)).rules).includes("bank.example.com"), false);
  });
});

Deno.test("config set site-permission: a bad pattern, value or removal exits 1 and writes nothing", async () => {
  await withTempDir(async (dir) => {
    await set(dir, "site-permission.example.com", "ask");
    const before = await Deno.readTextFile(join(dir, "config.json"));
    const cases: [string, string, RegExp][] = [
      ["site-permission.https://example.com/admin", "off", /must be an origin only/],
      ["site-permission.a.*.example.com", "off", /"\*"/],
      ["site-permission.example.com", "allow", /off, ask, auto or remove, not "allow"/],
      ["site-permission.other.example", "remove", /no site rule other\.example/],
      ["defaultSitePermission", "maybe", /defaultSitePermission must be off, ask, auto/],
      ["agentTabsOnly", "yes", /agentTabsOnly must be true or false/],
    ];
    for (const [key, value, message] of cases) {
      const r = await config(dir, ["set", key, value]);
      assertEquals(r.code, 1, `${key} ${value}: ${r.stdout}`);
      assertMatch(r.stderr, message);
      assertEquals(await Deno.readTextFile(join(dir, "config.json")), before);
    }
  });
});

Deno.test("config set defaultSitePermission and agentTabsOnly", async () => {
  await withTempDir(async (dir) => {
    await set(dir, "defaultSitePermission", "off");
    await set(dir, "agentTabsOnly", "true");
    assertEquals(await sites(dir), {
      rules: {},
      defaultSitePermission: "off",
      agentTabsOnly: true,
    });
    const show = await config(dir, ["show"]);
    assertMatch(show.stdout, /Sites: +off for sites without a rule; agentTabsOnly true; 0 rules/);
  });
});

Deno.test("/ws config.setSitePermission and config.setSiteDefaults persist and sync the state", async () => {
  await withFixture({ extension: true }, async (f) => {
    const sync = f.ext.next("sync.full");
    const set = await f.ext.request("config.setSitePermission", {
      pattern: "App.Example.com",
      permission: "off",
    });
    assertEquals(set.error, undefined);
    assertEquals(set.result.sitePermissions, { "app.example.com": "off" });
    assertEquals((await sync).params.sitePermissions, { "app.example.com": "off" });
    assertEquals((await f.readConfig()).sitePermissions, { "app.example.com": "off" });

    const removed = await f.ext.request("config.setSitePermission", {
      pattern: "app.example.com",
      permission: null,
    });
    assertEquals(removed.result.sitePermissions, {});

    const defaults = f.ext.next("sync.full");
    const changed = await f.ext.request("config.setSiteDefaults", {
      defaultSitePermission: "auto",
      agentTabsOnly: true,
    });
    assertEquals([changed.result.defaultSitePermission, changed.result.agentTabsOnly], [
      "auto",
      true,
    ]);
    assertEquals((await defaults).params.agentTabsOnly, true);
    const file = await f.readConfig();
    assertEquals([file.defaultSitePermission, file.agentTabsOnly], ["auto", true]);
  });
});

Deno.test("/ws config.setSitePermission with a bad pattern is -32602 naming it; nothing changes", async () => {
  await withFixture(
    { extension: true, config: { sitePermissions: { "a.example": "ask" } } },
    async (f) => {
      const before = await Deno.readTextFile(f.configPath);
      const cases: [unknown, RegExp][] = [
        [{ pattern: "https://a.example/x", permission: "auto" }, /must be an origin only/],
        [{ pattern: "constructor", permission: "auto" }, /reserved/],
        [{ pattern: "a.example", permission: "always" }, /params\.permission/],
      ];
      for (const [params, message] of cases) {
        const reply = await f.ext.request("config.setSitePermission", params);
        assertEquals(reply.error?.code, -32602, JSON.stringify(params));
        assertMatch(reply.error.message, message);
      }
      const bad = await f.ext.request("config.setSiteDefaults", { agentTabsOnly: "yes" });
      assertEquals(bad.error?.code, -32602);
      assertEquals(await Deno.readTextFile(f.configPath), before);
    },
  );
});

Deno.test("config set site-permission while a hub runs reaches the extension in sync.full", async () => {
  await withFixture({ extension: true }, async (f) => {
    const synced = f.ext.waitFor((m) =>
      m.method === "sync.full" && m.params?.sitePermissions?.["bank.example"] === "off"
    );
    const r = await set(f.dir, "site-permission.bank.example", "off", f.port);
    assert(r.stdout.includes("has reloaded"), r.stdout);
    assertEquals((await synced).params.defaultSitePermission, "ask");
  });
});

Deno.test("Always allow this site writes an auto rule through the running hub, then the call runs", async () => {
  const browserAuto = { permissions: { browser: { permission: "auto" } } };
  await withFixture({ extension: true, config: browserAuto }, async (f) => {
    f.ext.onDispatch((params) =>
      params.siteGrants?.includes("app.example.com")
        ? { ok: true, value: { title: "App", url: "https://app.example.com/" } }
        : {
          ok: false,
          error: {
            code: "SITE_ASK",
            message: "Agents may use app.example.com only if a person allows it.",
            category: "permission",
            retryable: false,
            details: { site: "app.example.com", url: "https://app.example.com/" },
          },
        }
    );
    const asked = f.ext.next("confirmation.request");
    const call = f.call("browser_get_page_text", {});
    const request = (await asked).params;
    assertEquals(request.site, "app.example.com");
    const synced = f.ext.waitFor((m) =>
      m.method === "sync.full" && m.params?.sitePermissions?.["app.example.com"] === "auto"
    );
    f.ext.confirm(request.id, "allow", true);
    assertEquals((await call).status, 200);
    await synced;
    assertEquals((await f.readConfig()).sitePermissions, { "app.example.com": "auto" });
  });
});

Deno.test("a hand edit of config.json's site rules reaches the extension without a reload", async () => {
  await withFixture({ extension: true }, async (f) => {
    const synced = f.ext.waitFor((m) =>
      m.method === "sync.full" && m.params?.sitePermissions?.["bank.example"] === "off"
    );
    const reloads = (await f.health()).reloadCount;
    const file = await f.readConfig();
    file.sitePermissions = { "bank.example": "off" };
    const tmp = `${f.configPath}.edit`;
    await Deno.writeTextFile(tmp, JSON.stringify(file, null, 2));
    await Deno.rename(tmp, f.configPath); // as an editor saves it; no hub config set, no reload
    assertEquals((await synced).params.defaultSitePermission, "ask");
    assertEquals((await f.health()).reloadCount, reloads, "announced, not reloaded");
  });
});
