// The launcher behind the `hub` and `hub-plugin` commands of the @tabhub/hub npm package: it runs
// one of the package's programs with the Deno binary that the `deno` dependency installed (never
// one found on PATH) and the permission flags of flags.json (written by npm/build.ts from
// cli/server/deno_permissions.ts), passes the arguments, stdio, signals and exit code through, and tells the
// program how it was installed.
"use strict";

const { spawn } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");

/** The package folder: bin/ is one level down. */
const PACKAGE_DIR = path.join(__dirname, "..");

/** The Deno binary of the `deno` npm package this package depends on. */
function denoExecutable() {
  let denoDir;
  try {
    denoDir = path.dirname(require.resolve("deno/package.json", { paths: [PACKAGE_DIR] }));
  } catch {
    throw new Error(
      'the "deno" package that @tabhub/hub depends on is not installed. Reinstall hub: ' +
        "npm i -g @tabhub/hub",
    );
  }
  const exe = path.join(denoDir, process.platform === "win32" ? "deno.exe" : "deno");
  if (fs.existsSync(exe)) return exe;
  // The deno package's postinstall copies the binary of its platform package (@deno/<platform>)
  // there; when install scripts were skipped, its own installer finds that binary instead.
  return require(path.join(denoDir, "install_api.cjs")).runInstall();
}

/**
 * The global node_modules folder the package is installed in (`<prefix>/lib/node_modules`;
 * Windows: `<prefix>\\node_modules`), where the hub looks for plugin packages. Undefined for npx
 * and a project's node_modules: there the hub asks `npm root -g`.
 */
function globalRootOf(packageDir) {
  let parent = path.dirname(packageDir);
  if (path.basename(parent).startsWith("@")) parent = path.dirname(parent);
  if (path.basename(parent) !== "node_modules" || /[\\/]_npx[\\/]/.test(parent)) return undefined;
  const isGlobal = process.platform === "win32" || path.basename(path.dirname(parent)) === "lib";
  return isGlobal ? parent : undefined;
}

/** The environment of the program: how hub was installed, and this Deno first on PATH. */
function childEnv(deno) {
  const env = { ...process.env, HUB_INSTALL: "npm", HUB_NPM_PACKAGE_DIR: PACKAGE_DIR };
  const root = globalRootOf(PACKAGE_DIR);
  if (root && !env.HUB_NPM_ROOT) env.HUB_NPM_ROOT = root;
  // `hub start --background` starts the server again with `deno`: let that be the same binary.
  const pathKey = Object.keys(env).find((k) => k.toUpperCase() === "PATH") || "PATH";
  env[pathKey] = [path.dirname(deno), env[pathKey]].filter(Boolean).join(path.delimiter);
  return env;
}

function fail(name, message) {
  console.error(`${name}: ${message}`);
  process.exit(1);
}

/** Runs `<PACKAGE_DIR>/<entry>` as the program `name` (a key of flags.json). */
function run(name, entry) {
  let deno;
  let flags;
  try {
    deno = denoExecutable();
    flags = JSON.parse(fs.readFileSync(path.join(PACKAGE_DIR, "flags.json"), "utf8"))[name];
    if (!Array.isArray(flags)) throw new Error(`flags.json has no flags for "${name}"`);
  } catch (error) {
    fail(name, `cannot start: ${error && error.message ? error.message : error}`);
  }
  const args = [
    "run",
    `--config=${path.join(PACKAGE_DIR, "deno.json")}`,
    ...flags,
    path.join(PACKAGE_DIR, entry),
    ...process.argv.slice(2),
  ];
  const child = spawn(deno, args, { stdio: "inherit", env: childEnv(deno) });
  const forward = (signal) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  };
  const signals = ["SIGINT", "SIGTERM", "SIGHUP"];
  for (const signal of signals) process.on(signal, forward);
  child.on("error", (error) => fail(name, `cannot run ${deno}: ${error.message}`));
  child.on("exit", (code, signal) => {
    if (signal) {
      // End the same way the program did, so a shell sees the signal.
      for (const s of signals) process.removeListener(s, forward);
      process.exitCode = 1;
      process.kill(process.pid, signal);
      return;
    }
    process.exit(code === null ? 1 : code);
  });
}

module.exports = { run, globalRootOf, denoExecutable };
