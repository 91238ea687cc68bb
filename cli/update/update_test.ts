import { assert, assertEquals, assertMatch, assertRejects } from "../../tests/helpers/assert.ts";
import { UserError } from "../../core/cli/user_error.ts";
import type { InstallKind } from "./install_kind.ts";
import { type NpmResult, npmRunner } from "../../core/process/npm_runner.ts";
import { restartAdvice, type ServerState, updateCommand, type UpdateDeps } from "./update.ts";

const REGISTRY = "http://registry.test/";
const GLOBAL: InstallKind = {
  kind: "npm-global",
  packageDir: "/p/lib/node_modules/@tabhub/hub",
  prefix: "/p",
};

type Answer = Partial<NpmResult>;

/** A fake npm: answers `view`, `install` and `config get registry`; records every call. */
class FakeNpm {
  calls: string[][] = [];
  installed: string | undefined = undefined;
  constructor(
    readonly view: Answer,
    readonly install: Answer = { code: 0 },
    readonly installs = true,
  ) {}
  run = (args: string[], timeoutMs: number): Promise<NpmResult> => {
    assert(timeoutMs > 0 && timeoutMs <= 600_000, `timeout ${timeoutMs}`);
    this.calls.push(args);
    const answer = args[0] === "view"
      ? this.view
      : args[0] === "install"
      ? this.install
      : { code: 0, stdout: `${REGISTRY}\n` };
    if (args[0] === "install" && answer.code === 0 && this.installs) {
      this.installed = args.find((a) => a.startsWith("@tabhub/hub@"))!.split("@").at(-1);
    }
    return Promise.resolve({ code: 0, stdout: "", stderr: "", timedOut: false, ...answer });
  };
  called(command: string): string[] | undefined {
    return this.calls.find((c) => c[0] === command);
  }
}

function setup(
  npm: FakeNpm,
  opts: { install?: InstallKind; server?: ServerState; version?: string } = {},
) {
  const printed: string[] = [];
  let temps = 0;
  const removed: string[] = [];
  const deps: UpdateDeps = {
    version: opts.version ?? "0.1.0",
    npm: npm.run,
    install: () => Promise.resolve(opts.install ?? GLOBAL),
    installedVersion: () => Promise.resolve(npm.installed ?? opts.version ?? "0.1.0"),
    serverState: () => Promise.resolve(opts.server ?? { running: false, port: 9515 }),
    makeTempDir: () => Promise.resolve(`/tmp/cache-${++temps}`),
    removeDir: (dir) => Promise.resolve(void removed.push(dir)),
    print: (line) => void printed.push(line),
  };
  return { deps, printed, removed, output: () => printed.join("\n") };
}

const viewOf = (version: string): Answer => ({ stdout: JSON.stringify(version) + "\n" });

async function rejectsWith(promise: Promise<unknown>, pattern: RegExp): Promise<void> {
  await assertRejects(promise, (error: Error) => {
    assert(error instanceof UserError, `not a UserError: ${error.stack}`);
    assertMatch(error.message, pattern);
    assert(!error.message.includes("\n"), `more than one line: ${error.message}`);
    assert(error.message.length < 600, `too long: ${error.message}`);
    return true;
  });
}

Deno.test("update --check: equal, older and newer published versions", async () => {
  for (
    const [published, expected] of [
      ["0.1.0", /^hub 0\.1\.0 is up to date\.$/],
      ["0.0.9", /hub 0\.1\.0 is newer than the latest published version \(0\.0\.9\)/],
      ["0.1.1", /^hub 0\.1\.1 is available \(installed 0\.1\.0\); run "hub update"/],
      ["0.10.0", /^hub 0\.10\.0 is available/], // semver order, not string order
    ] as const
  ) {
    const npm = new FakeNpm(viewOf(published));
    const t = setup(npm);
    await updateCommand({ check: true }, t.deps);
    assertMatch(t.output(), expected);
    assertEquals(npm.called("install"), undefined);
  }
});

Deno.test("the registry is asked with an empty cache, online, with bounded retries", async () => {
  const npm = new FakeNpm(viewOf("0.1.0"));
  const t = setup(npm);
  await updateCommand({ check: true }, t.deps);
  const view = npm.called("view")!;
  assertEquals(view.slice(0, 4), ["view", "@tabhub/hub", "version", "--json"]);
  assert(view.includes("--prefer-online"));
  assert(view.includes("--cache=/tmp/cache-1"));
  assert(view.includes("--fetch-retries=1"));
  assertEquals(t.removed, ["/tmp/cache-1"]);
});

Deno.test("update installs a newer version into the prefix hub lives in", async () => {
  const npm = new FakeNpm(viewOf("0.2.0"));
  const t = setup(npm, { server: { running: true, port: 4000, background: true } });
  await updateCommand({}, t.deps);
  const install = npm.called("install")!;
  assertEquals(install.slice(0, 4), ["install", "--global", "--prefix=/p", "@tabhub/hub@0.2.0"]);
  assertMatch(t.output(), /Updated hub 0\.1\.0 -> 0\.2\.0\./);
  assertMatch(t.output(), /port 4000 still runs 0\.1\.0.*"hub stop && hub start --background"/);
});

Deno.test("update: nothing installed when up to date or when the install is older", async () => {
  for (const published of ["0.1.0", "0.0.1"]) {
    const npm = new FakeNpm(viewOf(published));
    await updateCommand({}, setup(npm).deps);
    assertEquals(npm.called("install"), undefined);
  }
});

Deno.test("update: npm succeeded but the package folder has another version", async () => {
  const npm = new FakeNpm(viewOf("0.2.0"), { code: 0 }, false);
  await rejectsWith(updateCommand({}, setup(npm).deps), /says version 0\.1\.0, not 0\.2\.0/);
});

Deno.test("update: a failed install names npm's error and the command to run", async () => {
  const npm = new FakeNpm(viewOf("0.2.0"), {
    code: 243,
    stderr: "npm error code EACCES\nnpm error syscall mkdir\nnpm error path /p/lib\n",
  });
  await rejectsWith(
    updateCommand({}, setup(npm).deps),
    /failed: code EACCES .*You may not write to \/p.*npm install --global --prefix "\/p"/,
  );
  const slow = new FakeNpm(viewOf("0.2.0"), { code: 143, timedOut: true });
  await rejectsWith(updateCommand({}, setup(slow).deps), /did not finish within 10 minutes/);
});

Deno.test("registry errors: down, package missing, refused, timeout, garbage", async () => {
  const json = (code: string) => ({
    code: 1,
    stdout: JSON.stringify({ error: { code, summary: `${code} summary` } }),
  });
  const cases: [Answer, RegExp][] = [
    [
      json("ECONNREFUSED"),
      /Cannot reach the npm registry http:\/\/registry\.test\/ .*ECONNREFUSED/,
    ],
    [json("ENOTFOUND"), /Cannot reach the npm registry/],
    [json("E404"), /@tabhub\/hub is not published on the npm registry http:\/\/registry\.test\//],
    [json("E401"), /refused to show @tabhub\/hub \(E401\).*npm login/],
    [{ code: 1, stderr: "npm error code E500\nnpm error 500 Internal\n" }, /failed: code E500/],
    [{ code: 143, timedOut: true }, /did not answer within 60 s/],
    [{ code: 0, stdout: "<html>" }, /gave no valid version/],
  ];
  for (const [view, pattern] of cases) {
    for (const check of [true, false]) {
      const npm = new FakeNpm(view);
      await rejectsWith(updateCommand({ check }, setup(npm).deps), pattern);
      assertEquals(npm.called("install"), undefined);
    }
  }
});

Deno.test("installs npm does not manage globally get the command that updates them", async () => {
  const checkout: InstallKind = { kind: "checkout", root: "/src/hub" };
  const t = setup(new FakeNpm(viewOf("0.2.0")), { install: checkout });
  await updateCommand({ check: true }, t.deps);
  assertMatch(t.output(), /git -C \/src\/hub pull/);
  await rejectsWith(
    updateCommand({}, t.deps),
    /updates only the npm package.*git -C \/src\/hub pull/,
  );

  const npx: InstallKind = { kind: "npm-local", packageDir: "/h/_npx/1/node_modules/@tabhub/hub" };
  const npm = new FakeNpm(viewOf("0.2.0"));
  const local = setup(npm, { install: npx });
  await updateCommand({ check: true }, local.deps);
  assertMatch(local.output(), /hub 0\.2\.0 is available.*npx @tabhub\/hub@0\.2\.0/);
  await rejectsWith(updateCommand({}, local.deps), /cannot install it.*npx @tabhub\/hub@0\.2\.0/);
  assertEquals(npm.called("install"), undefined);
});

Deno.test("restartAdvice: no hub, a background hub, a hub in a terminal", () => {
  assertMatch(
    restartAdvice({ running: false, port: 9515 }, "0.1.0", "0.2.0"),
    /No hub is running on port 9515; the next "hub start" runs 0\.2\.0/,
  );
  assertMatch(
    restartAdvice({ running: true, port: 9515, background: false }, "0.1.0", "0.2.0"),
    /still runs 0\.1\.0.*Ctrl\+C.*"hub start" again/,
  );
});

Deno.test("the npm runner: a missing npm is a user error, a slow one is stopped", async () => {
  await rejectsWith(npmRunner("hub-test-no-such-npm")(["--version"], 5_000), /not on the PATH/);
  const started = Date.now();
  const slow = await npmRunner("sleep")(["30"], 200);
  assertEquals(slow.timedOut, true);
  assert(Date.now() - started < 10_000);
});
