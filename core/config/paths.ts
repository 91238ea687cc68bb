/** Where hub keeps its files. Every path is derived from one config directory. */
import { isAbsolute, join, resolve } from "node:path";
import { UserError } from "../cli/user_error.ts";

export interface HubPaths {
  dir: string;
  config: string;
  extensionDir: string;
  auth: string;
  serverLog: string;
  /** Plugins' log lines, apart from the hub's own (`server.log`). */
  pluginsLog: string;
  pidFile: string;
  auditLog: string;
}

/** The user's home directory, from `HOME` (or `USERPROFILE` on Windows). */
export function homeDir(): string {
  const home = Deno.env.get("HOME") ?? Deno.env.get("USERPROFILE");
  if (!home) {
    throw new UserError(
      "Cannot find the home directory: set HOME, or set HUB_CONFIG_DIR to a folder.",
    );
  }
  return home;
}

/** Expands a leading `~/` to the home directory. */
export function expandHome(path: string): string {
  if (path === "~") return homeDir();
  if (path.startsWith("~/")) return join(homeDir(), path.slice(2));
  return path;
}

/** The config directory: `HUB_CONFIG_DIR` when set, else `~/.hub`. */
export function configDirFromEnv(): string {
  const fromEnv = Deno.env.get("HUB_CONFIG_DIR");
  if (fromEnv && fromEnv.trim() !== "") return resolve(expandHome(fromEnv.trim()));
  return join(homeDir(), ".hub");
}

export function hubPaths(dir: string = configDirFromEnv()): HubPaths {
  const extensionDir = join(dir, "extension");
  return {
    dir,
    config: join(dir, "config.json"),
    extensionDir,
    auth: join(extensionDir, "auth.json"),
    serverLog: join(dir, "server.log"),
    pluginsLog: join(dir, "plugins.log"),
    pidFile: join(dir, "server.pid"),
    auditLog: join(dir, "audit.log"),
  };
}

/**
 * Resolves a local plugin path: `./` and `../` paths are relative to the config
 * directory, `~/` paths to the home directory; absolute paths stay as they are.
 */
export function resolvePluginPath(path: string, configDir: string): string {
  const expanded = expandHome(path);
  return isAbsolute(expanded) ? resolve(expanded) : resolve(configDir, expanded);
}
