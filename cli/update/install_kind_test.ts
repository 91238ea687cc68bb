import { assertEquals, assertMatch, assertThrows } from "../../tests/helpers/assert.ts";
import { UserError } from "../../core/cli/user_error.ts";
import { detectInstall, type InstallFacts, manualUpdate, npmInstall } from "./install_kind.ts";

function facts(over: Partial<InstallFacts> & { vars?: Record<string, string> }): InstallFacts {
  return {
    env: (name) => over.vars?.[name],
    sourceRoot: "file:///home/me/hub/",
    execPath: "/usr/local/bin/deno",
    os: "linux",
    exists: () => Promise.resolve(false),
    ...over,
  };
}

Deno.test("npm: the global prefix is derived from the package folder", () => {
  assertEquals(npmInstall("/usr/local/lib/node_modules/@tabhub/hub", "linux"), {
    kind: "npm-global",
    packageDir: "/usr/local/lib/node_modules/@tabhub/hub",
    prefix: "/usr/local",
  });
  assertEquals(npmInstall("/tmp/p/lib/node_modules/@tabhub/hub/", "darwin"), {
    kind: "npm-global",
    packageDir: "/tmp/p/lib/node_modules/@tabhub/hub",
    prefix: "/tmp/p",
  });
  // Windows keeps global packages in <prefix>/node_modules (checked with POSIX paths here).
  assertEquals(npmInstall("/c/npm/node_modules/@tabhub/hub", "windows"), {
    kind: "npm-global",
    packageDir: "/c/npm/node_modules/@tabhub/hub",
    prefix: "/c/npm",
  });
});

Deno.test("npm: npx and a project's node_modules are not global installs", () => {
  for (
    const dir of [
      "/home/me/.npm/_npx/1a2b/node_modules/@tabhub/hub",
      "/home/me/project/node_modules/@tabhub/hub",
    ]
  ) {
    assertEquals(npmInstall(dir, "linux"), { kind: "npm-local", packageDir: dir });
  }
  assertEquals(npmInstall("/c/x/_npx/1/node_modules/@tabhub/hub", "windows").kind, "npm-local");
});

Deno.test("npm: a missing or foreign HUB_NPM_PACKAGE_DIR is a clear error", () => {
  assertThrows(() => npmInstall(undefined, "linux"), (e: Error) => {
    return e instanceof UserError && /HUB_NPM_PACKAGE_DIR is not/.test(e.message);
  });
  assertThrows(() => npmInstall("/usr/lib/node_modules/other", "linux"), (e: Error) => {
    return e instanceof UserError && /is not a folder of the @tabhub\/hub package/.test(e.message);
  });
});

Deno.test("detectInstall: npm, compiled, checkout, source, unknown HUB_INSTALL", async () => {
  const dir = "/p/lib/node_modules/@tabhub/hub";
  assertEquals(
    await detectInstall(facts({ vars: { HUB_INSTALL: "npm", HUB_NPM_PACKAGE_DIR: dir } })),
    { kind: "npm-global", packageDir: dir, prefix: "/p" },
  );
  assertEquals(await detectInstall(facts({ execPath: "/opt/bin/hub" })), {
    kind: "compiled",
    binary: "/opt/bin/hub",
  });
  const withGit = facts({ exists: (p) => Promise.resolve(p === "/home/me/hub/.git") });
  assertEquals(await detectInstall(withGit), { kind: "checkout", root: "/home/me/hub" });
  assertEquals(await detectInstall(facts({})), { kind: "source", root: "/home/me/hub" });
  const remote = facts({ sourceRoot: "https://example.com/hub/" });
  assertEquals(await detectInstall(remote), { kind: "source", root: "https://example.com/hub/" });
  await detectInstall(facts({ vars: { HUB_INSTALL: "brew" } })).then(
    () => assertEquals("resolved", "rejected"),
    (e: Error) => assertEquals(e instanceof UserError && /"brew"/.test(e.message), true),
  );
});

Deno.test("manualUpdate names the command for each kind of install", () => {
  const say = (install: Parameters<typeof manualUpdate>[0]) => manualUpdate(install, "0.1.0");
  assertMatch(
    say({ kind: "checkout", root: "/home/me/hub" }),
    /git -C \/home\/me\/hub pull.*deno task start/,
  );
  assertMatch(
    say({ kind: "checkout", root: "/home/me/my hub" }),
    /git -C "\/home\/me\/my hub" pull/,
  );
  assertMatch(say({ kind: "source", root: "/x" }), /re-run the "deno install" command/);
  assertMatch(
    say({ kind: "compiled", binary: "/opt/hub" }),
    /compiled binary \/opt\/hub.*deno task compile:hub/,
  );
  const npx = { kind: "npm-local", packageDir: "/h/.npm/_npx/1/node_modules/@tabhub/hub" } as const;
  assertMatch(manualUpdate(npx, "0.1.0", "0.2.0"), /"npx @tabhub\/hub@0\.2\.0"/);
  const project = { kind: "npm-local", packageDir: "/h/proj/node_modules/@tabhub/hub" } as const;
  assertMatch(say(project), /"npm i @tabhub\/hub@latest" in that project/);
});
