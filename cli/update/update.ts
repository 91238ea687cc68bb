/**
 * `hub update [--check]`: compares this hub's version with the latest one published on the
 * registry npm is configured with, and installs it globally (where this hub is installed) when it
 * is newer. Only the npm package updates itself; any other install is told the command that
 * updates it. A running hub keeps running the old version until it is restarted.
 */
import { join } from "node:path";
import { UserError } from "../../core/cli/user_error.ts";
import { cliClient, cliPaths } from "../../core/client/client_context.ts";
import { VERSION } from "../../protocol/version.ts";
import { detectInstall, type InstallKind, manualUpdate, NPM_PACKAGE } from "./install_kind.ts";
import { compareVersions, installGlobal, latestPublished } from "./npm_release.ts";
import { type NpmRunner, runNpm } from "../../core/process/npm_runner.ts";
import { readPidFile } from "../server/pid_file.ts";

/** Whether a hub runs now: none, one started with --background, or one in a terminal. */
export type ServerState = { running: false; port: number } | {
  running: true;
  port: number;
  background: boolean;
};

export interface UpdateDeps {
  version: string;
  npm: NpmRunner;
  install(): Promise<InstallKind>;
  /** The version in `<packageDir>/package.json`, undefined when unreadable. */
  installedVersion(packageDir: string): Promise<string | undefined>;
  serverState(port: string | undefined): Promise<ServerState>;
  makeTempDir(): Promise<string>;
  removeDir(dir: string): Promise<void>;
  print(line: string): void;
}

export interface UpdateOptions {
  check?: boolean;
  port?: string;
}

export async function updateCommand(
  options: UpdateOptions,
  deps: UpdateDeps = realDeps(),
): Promise<void> {
  const install = await deps.install();
  if (install.kind !== "npm-global" && install.kind !== "npm-local") {
    const how = manualUpdate(install, deps.version);
    if (options.check) return deps.print(how);
    throw new UserError(`"hub update" updates only the npm package (${NPM_PACKAGE}). ${how}`);
  }
  const cache = await deps.makeTempDir();
  const latest = await latestPublished(deps.npm, cache).finally(() => deps.removeDir(cache));
  const order = compareVersions(latest, deps.version);
  if (order === 0) return deps.print(`hub ${deps.version} is up to date.`);
  if (order < 0) {
    return deps.print(
      `hub ${deps.version} is newer than the latest published version (${latest}); ` +
        `nothing to update.`,
    );
  }
  if (install.kind === "npm-local") {
    const how = manualUpdate(install, deps.version, latest);
    if (options.check) {
      return deps.print(`hub ${latest} is available (installed ${deps.version}). ${how}`);
    }
    throw new UserError(`hub ${latest} is available, but "hub update" cannot install it: ${how}`);
  }
  if (options.check) {
    return deps.print(
      `hub ${latest} is available (installed ${deps.version}); run "hub update" to install it.`,
    );
  }
  deps.print(`Installing ${NPM_PACKAGE}@${latest} with npm into ${install.prefix}...`);
  await installGlobal(deps.npm, install.prefix, latest);
  const now = await deps.installedVersion(install.packageDir);
  if (now !== latest) {
    throw new UserError(
      `npm finished, but ${join(install.packageDir, "package.json")} says version ` +
        `${now ?? "(unreadable)"}, not ${latest}. Run "${
          manualUpdate(install, deps.version, latest)
        }" ` +
        `yourself and check its output.`,
    );
  }
  deps.print(`Updated hub ${deps.version} -> ${latest}.`);
  deps.print(restartAdvice(await deps.serverState(options.port), deps.version, latest));
}

export function restartAdvice(state: ServerState, old: string, latest: string): string {
  if (!state.running) {
    return `No hub is running on port ${state.port}; the next "hub start" runs ${latest}.`;
  }
  const how = state.background
    ? `"hub stop && hub start --background"`
    : `stop it (Ctrl+C where it runs) and run "hub start" again`;
  return `The hub running on port ${state.port} still runs ${old}: restart it to use ` +
    `${latest}: ${how}.`;
}

function realDeps(): UpdateDeps {
  return {
    version: VERSION,
    npm: runNpm,
    install: () =>
      detectInstall({
        env: (name) => Deno.env.get(name),
        sourceRoot: new URL("../../", import.meta.url).href,
        execPath: Deno.execPath(),
        os: Deno.build.os,
        exists: (path) => Deno.stat(path).then(() => true, () => false),
      }),
    installedVersion: async (dir) => {
      try {
        const version = JSON.parse(await Deno.readTextFile(join(dir, "package.json"))).version;
        return typeof version === "string" ? version : undefined;
      } catch {
        return undefined;
      }
    },
    serverState: currentServer,
    makeTempDir: () => Deno.makeTempDir({ prefix: "hub-update-" }),
    removeDir: (dir) => Deno.remove(dir, { recursive: true }).catch(() => {}),
    print: (line) => console.log(line),
  };
}

/** Like `hub status`: is a hub answering on the port, and did `hub start --background` start it? */
async function currentServer(port: string | undefined): Promise<ServerState> {
  const paths = cliPaths();
  const client = await cliClient(port, paths);
  if (!(await client.isUp())) return { running: false, port: client.port };
  const background = (await readPidFile(paths.pidFile))?.kind === "record";
  return { running: true, port: client.port, background };
}
