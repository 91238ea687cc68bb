/**
 * Installs verdaccio (the test npm registry) into tests/registry/ on first use, from its committed
 * package.json and package-lock.json, under a lock folder so that suites starting at the same time
 * install it once. `.ci/run` installs it up front the same way (npm ci in that folder).
 */
import { join } from "node:path";
import { ROOT } from "./hub_process.ts";

export const REGISTRY_DIR = join(ROOT, "tests", "registry");
const LOCK_DIR = join(REGISTRY_DIR, ".install.lock");
const INSTALL_TIMEOUT_MS = 300_000;
const LOCK_WAIT_MS = INSTALL_TIMEOUT_MS + 30_000;
/** A lock older than this was left by a process that died while installing. */
const STALE_LOCK_MS = INSTALL_TIMEOUT_MS + 60_000;

/** The verdaccio CLI script, installing verdaccio first when it is missing or not the pinned one. */
export async function verdaccioBin(): Promise<string> {
  if (!(await isInstalled())) await installUnderLock();
  return join(REGISTRY_DIR, "node_modules", "verdaccio", "bin", "verdaccio");
}

/** Installed = npm finished (it writes node_modules/.package-lock.json last) the pinned version. */
async function isInstalled(): Promise<boolean> {
  try {
    const wanted = JSON.parse(await Deno.readTextFile(join(REGISTRY_DIR, "package.json")))
      .dependencies.verdaccio;
    const installed = JSON.parse(
      await Deno.readTextFile(join(REGISTRY_DIR, "node_modules", "verdaccio", "package.json")),
    ).version;
    await Deno.stat(join(REGISTRY_DIR, "node_modules", ".package-lock.json"));
    return installed === wanted;
  } catch {
    return false;
  }
}

async function installUnderLock(): Promise<void> {
  const deadline = Date.now() + LOCK_WAIT_MS;
  while (!(await tryLock())) {
    if (Date.now() > deadline) {
      throw new Error(
        `Waited ${LOCK_WAIT_MS / 1000} s for another process installing verdaccio (lock ` +
          `${LOCK_DIR}). If none runs, delete that folder and run the tests again.`,
      );
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  try {
    // One retry: a network hiccup, or an install started by hand in the same folder meanwhile.
    if (!(await isInstalled())) await npmCi().catch(() => npmCi());
  } finally {
    await Deno.remove(LOCK_DIR, { recursive: true }).catch(() => {});
  }
}

async function tryLock(): Promise<boolean> {
  try {
    await Deno.mkdir(LOCK_DIR);
    return true;
  } catch (error) {
    if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
  }
  const info = await Deno.stat(LOCK_DIR).catch(() => undefined);
  const age = info?.mtime ? Date.now() - info.mtime.getTime() : 0;
  if (age > STALE_LOCK_MS) await Deno.remove(LOCK_DIR, { recursive: true }).catch(() => {});
  return false;
}

async function npmCi(): Promise<void> {
  const args = ["ci", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error"];
  const what = `"npm ${args.join(" ")}" in ${REGISTRY_DIR}`;
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command("npm", {
      args,
      cwd: REGISTRY_DIR,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
  } catch (error) {
    throw new Error(
      `Cannot install verdaccio for the registry tests: ${what} could not start ` +
        `(${(error as Error).message}). Install Node.js and npm.`,
    );
  }
  const timer = setTimeout(() => child.kill("SIGKILL"), INSTALL_TIMEOUT_MS);
  const out = await child.output().finally(() => clearTimeout(timer));
  if (out.success) return;
  const text = new TextDecoder().decode(out.stderr) + new TextDecoder().decode(out.stdout);
  const tail = text.trim().split("\n").slice(-15).join("\n");
  throw new Error(
    `Cannot install verdaccio for the registry tests: ${what} failed (exit ${out.code}` +
      `${out.signal ? `, ${out.signal} after ${INSTALL_TIMEOUT_MS / 1000} s` : ""}). Is the npm ` +
      `registry reachable? npm said:\n${tail}`,
  );
}
