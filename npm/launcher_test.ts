/**
 * The launchers of npm/bin/, run by Node on a small package laid out like a global install (its
 * `deno` dependency links to this Deno), without npm: arguments, environment, exit code and
 * signals pass through, and a missing Deno is a clear error.
 */
import { join } from "node:path";
import { assert, assertEquals } from "../tests/helpers/assert.ts";

const BIN = new URL("./bin/", import.meta.url);

/** A program that reports what it was started with, exits with a code, or waits for SIGTERM. */
const PROGRAM = `
const [mode] = Deno.args;
if (mode === "wait") {
  Deno.addSignalListener("SIGTERM", () => { console.log("got SIGTERM"); Deno.exit(0); });
  setTimeout(() => Deno.exit(9), 20_000);
}
const env = (n) => Deno.env.get(n) ?? null;
console.log(JSON.stringify({
  args: Deno.args,
  install: env("HUB_INSTALL"),
  packageDir: env("HUB_NPM_PACKAGE_DIR"),
  npmRoot: env("HUB_NPM_ROOT"),
  path: env("PATH"),
}));
if (mode === "exit") Deno.exit(7);
`;

async function fakeInstall(tmp: string): Promise<string> {
  const pkg = join(tmp, "prefix", "lib", "node_modules", "@tabhub", "hub");
  await Deno.mkdir(join(pkg, "bin"), { recursive: true });
  for (const name of ["run_deno.cjs", "hub.cjs"]) {
    await Deno.copyFile(new URL(name, BIN), join(pkg, "bin", name));
  }
  await Deno.writeTextFile(join(pkg, "package.json"), '{"name":"@tabhub/hub","type":"module"}');
  await Deno.writeTextFile(join(pkg, "deno.json"), '{"nodeModulesDir":"manual","lock":false}');
  await Deno.writeTextFile(join(pkg, "flags.json"), '{"hub":["--allow-env"]}');
  await Deno.writeTextFile(join(pkg, "main.js"), PROGRAM);
  const deno = join(pkg, "node_modules", "deno");
  await Deno.mkdir(deno, { recursive: true });
  await Deno.writeTextFile(join(deno, "package.json"), '{"name":"deno","version":"0.0.0"}');
  await Deno.symlink(Deno.execPath(), join(deno, "deno"));
  return pkg;
}

function launch(pkg: string, args: string[]) {
  return new Deno.Command("node", {
    args: [join(pkg, "bin", "hub.cjs"), ...args],
    clearEnv: true,
    env: {
      PATH: Deno.env.get("PATH") ?? "",
      HOME: Deno.env.get("HOME") ?? "",
      DENO_DIR: join(pkg, "..", "..", "..", "deno-dir"),
    },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  });
}

const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

Deno.test("launcher: runs the program with the package's Deno, arguments and environment", async () => {
  const tmp = await Deno.makeTempDir({ prefix: "hub_launcher_" });
  try {
    const pkg = await fakeInstall(tmp);
    const out = await launch(pkg, ["status", "--json"]).output();
    assertEquals(out.code, 0, decode(out.stderr));
    const seen = JSON.parse(decode(out.stdout));
    assertEquals(seen.args, ["status", "--json"]);
    assertEquals(seen.install, "npm");
    assertEquals(seen.packageDir, pkg);
    assertEquals(seen.npmRoot, join(tmp, "prefix", "lib", "node_modules"));
    assertEquals(seen.path.split(":")[0], join(pkg, "node_modules", "deno"));

    const exit = await launch(pkg, ["exit"]).output();
    assertEquals(exit.code, 7);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("launcher: SIGTERM reaches the program, and its exit code comes back", async () => {
  const tmp = await Deno.makeTempDir({ prefix: "hub_launcher_" });
  try {
    const pkg = await fakeInstall(tmp);
    const child = launch(pkg, ["wait"]).spawn();
    const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    while (!text.includes("\n")) text += (await reader.read()).value ?? ""; // the program runs
    child.kill("SIGTERM");
    for (let r = await reader.read(); !r.done; r = await reader.read()) text += r.value;
    const status = await child.status;
    assertEquals([status.code, text.trim().split("\n").at(-1)], [0, "got SIGTERM"]);
    await child.stderr.cancel();
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("launcher: without the deno package it says so and exits 1", async () => {
  const tmp = await Deno.makeTempDir({ prefix: "hub_launcher_" });
  try {
    const pkg = await fakeInstall(tmp);
    await Deno.remove(join(pkg, "node_modules"), { recursive: true });
    const out = await launch(pkg, ["--version"]).output();
    assertEquals(out.code, 1);
    assert(
      decode(out.stderr).startsWith('hub: cannot start: the "deno" package that @tabhub/hub'),
      decode(out.stderr),
    );
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("launcher: HUB_NPM_ROOT only for a global install, not npx or a project", async () => {
  const script = `const { globalRootOf } = require(${
    JSON.stringify(new URL("run_deno.cjs", BIN).pathname)
  });
console.log(JSON.stringify(process.argv.slice(1).map((p) => globalRootOf(p) ?? null)));`;
  const paths = [
    "/p/lib/node_modules/@tabhub/hub",
    "/home/u/project/node_modules/@tabhub/hub",
    "/home/u/.npm/_npx/1a2b/node_modules/@tabhub/hub",
    "/somewhere/@tabhub/hub",
  ];
  const out = await new Deno.Command("node", { args: ["-e", script, ...paths] }).output();
  assertEquals(out.code, 0, decode(out.stderr));
  assertEquals(JSON.parse(decode(out.stdout)), ["/p/lib/node_modules", null, null, null]);
});
