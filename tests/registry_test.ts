/**
 * The test registry (tests/helpers/registry.ts) is a real npm registry: a package published to it
 * is seen by npm through env(); third-party names come through the public uplink; our own names
 * never do.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { registryNpm, startRegistry, type TestRegistry, UPLINK } from "./helpers/registry.ts";

function npm(registry: TestRegistry, args: string[]) {
  return registryNpm(registry, args, 60_000);
}

Deno.test("test registry: publish, view, uplink for third parties, none for our names", async (t) => {
  const started = performance.now();
  const registry = await startRegistry();
  console.log(`verdaccio ready in ${Math.round(performance.now() - started)} ms`);
  const pkgDir = await Deno.makeTempDir({ prefix: "hub-probe-" });
  try {
    await t.step("env() points npm at the registry and away from the machine's config", () => {
      const env = registry.env({ EXTRA: "1" });
      assertEquals(env.NPM_CONFIG_REGISTRY, registry.url);
      assertEquals(env.NPM_CONFIG_USERCONFIG, registry.npmrc);
      assertEquals(env.EXTRA, "1");
      assert(env.HOME !== Deno.env.get("HOME"));
      assertEquals(
        Deno.readTextFileSync(join(env.HOME, ".npmrc")),
        Deno.readTextFileSync(registry.npmrc),
      );
      assertMatch(
        Deno.readTextFileSync(registry.npmrc),
        /^\/\/127\.0\.0\.1:\d+\/:_authToken=\S+$/m,
      );
    });

    await t.step("a published hub-plugin-probe is seen by npm view", async () => {
      const manifest = { name: "hub-plugin-probe", version: "1.2.3", main: "index.js" };
      await Deno.writeTextFile(join(pkgDir, "package.json"), JSON.stringify(manifest));
      await Deno.writeTextFile(join(pkgDir, "index.js"), "module.exports = 1;\n");
      await registry.publish(pkgDir);
      const view = await npm(registry, ["view", "hub-plugin-probe", "version", "--json"]);
      assertEquals(view.code, 0, view.stderr);
      assertEquals(JSON.parse(view.stdout), "1.2.3");
      const res = await fetch(`${registry.url}hub-plugin-probe`);
      assertEquals((await res.json())["dist-tags"].latest, "1.2.3");
    });

    await t.step("a third-party package resolves through the uplink", async () => {
      const view = await npm(registry, ["view", "semver", "name", "--json"]);
      assertEquals(view.code, 0, view.stderr);
      assertEquals(JSON.parse(view.stdout), "semver");
      await registry.waitForLog(new RegExp(`GET ${UPLINK}semver`));
    });

    await t.step("an unknown @tabhub name is a 404 and never asked of the uplink", async () => {
      const view = await npm(registry, ["view", "@tabhub/not-published-here", "version", "--json"]);
      assert(view.code !== 0, view.stdout);
      assertMatch(view.stdout + view.stderr, /E404/);
      for (const name of ["@tabhub%2fhub", "hub-plugin-nope", "@someone%2fhub-plugin-nope"]) {
        const res = await fetch(`${registry.url}${name}`);
        await res.body?.cancel();
        assertEquals(res.status, 404, name);
      }
      // Verdaccio logs an uplink request before its answer: once the answers are logged, the
      // log holds every uplink request made for these names.
      for (const name of ["@tabhub(%2f|/)not-published-here", "@someone(%2f|/)hub-plugin-nope"]) {
        await registry.waitForLog(new RegExp(`<-- 404, .*'GET /${name}'`, "i"));
      }
      const logs = registry.logs();
      assertEquals(/registry\.npmjs\.org\/(@tabhub|hub-plugin|@someone)/i.test(logs), false, logs);
    });
  } finally {
    await registry.stop();
    await Deno.remove(pkgDir, { recursive: true });
  }
});
