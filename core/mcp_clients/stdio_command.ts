/**
 * The command an MCP client spawns to reach hub over stdio (`hub start --stdio --port N`), as a
 * command that exists on this machine, with absolute paths (clients spawn with their own working
 * folder and PATH):
 * - the compiled `hub` binary this process is;
 * - else an installed `hub` on PATH that is this version of the npm package `@tabhub/hub`;
 * - else Deno (this process's binary) running this program's `main.ts` (a checkout) or `main.js`
 *   (the npm package) with its `deno.json` and hub's permission flags.
 * The permission flags are given by the caller (cli/server/deno_permissions.ts owns them).
 */
import { posix, win32 } from "node:path";
import { fileURLToPath } from "node:url";
import { VERSION } from "../../protocol/version.ts";
import { configDirFromEnv } from "../config/paths.ts";
import type { StdioCommand } from "./entry.ts";

export interface StdioProbe {
  os: typeof Deno.build.os;
  standalone: boolean;
  /** This process's binary: Deno, or the compiled hub. */
  execPath: string;
  /** The absolute path of the program's entry file (main.ts, or main.js in the npm package). */
  mainPath: string;
  version: string;
  /** HUB_CONFIG_DIR resolved (absolute, `~` expanded) when it is set: the bridge needs it too. */
  hubConfigDir: string | undefined;
  env(name: string): string | undefined;
  /** The resolved path of a regular file, or undefined when there is none. */
  realFile(path: string): string | undefined;
  /** A small text file's contents, or undefined. */
  readText(path: string): string | undefined;
}

export interface StdioCommandOptions {
  port: number;
  /** Deno permission flags for `deno run` (HUB_PERMISSION_FLAGS). */
  permissionFlags: readonly string[];
  /** Facts about this machine; default: this process's (defaultProbe()). */
  probe?: StdioProbe;
}

const MAX_PACKAGE_JSON = 64 * 1024;

/** Where this program's entry file is: the running main module when it is one, else main.ts. */
function programMain(): string {
  const main = Deno.mainModule;
  if (main.startsWith("file:") && /[/\\]main\.(ts|js)$/.test(main)) return fileURLToPath(main);
  return posix.join(import.meta.dirname ?? ".", "..", "..", "main.ts");
}

export function defaultProbe(): StdioProbe {
  const env = (name: string) => {
    try {
      return Deno.env.get(name);
    } catch {
      return undefined; // not allowed: treated as unset
    }
  };
  return {
    os: Deno.build.os,
    standalone: Deno.build.standalone === true,
    execPath: Deno.execPath(),
    mainPath: programMain(),
    version: VERSION,
    hubConfigDir: env("HUB_CONFIG_DIR")?.trim() ? configDirFromEnv() : undefined,
    env,
    realFile: (path) => {
      try {
        const real = Deno.realPathSync(path);
        return Deno.statSync(real).isFile ? real : undefined;
      } catch {
        return undefined;
      }
    },
    readText: (path) => {
      try {
        if (Deno.statSync(path).size > MAX_PACKAGE_JSON) return undefined;
        return Deno.readTextFileSync(path);
      } catch {
        return undefined;
      }
    },
  };
}

/** Whether a resolved launcher is `bin/hub.cjs` of `@tabhub/hub` at this version. */
function isThisNpmHub(real: string, probe: StdioProbe): boolean {
  const p = probe.os === "windows" ? win32 : posix;
  if (!/[/\\]bin[/\\]hub\.cjs$/.test(real)) return false;
  const text = probe.readText(p.join(p.dirname(p.dirname(real)), "package.json"));
  try {
    const pkg = text === undefined ? undefined : JSON.parse(text);
    return pkg?.name === "@tabhub/hub" && pkg?.version === probe.version;
  } catch {
    return false;
  }
}

/** An installed `hub` on PATH that is this version, by its absolute path; undefined: none. */
export function installedHub(probe: StdioProbe): string | undefined {
  const p = probe.os === "windows" ? win32 : posix;
  const pathVar = probe.env("PATH") ?? (probe.os === "windows" ? probe.env("Path") : undefined);
  const names = probe.os === "windows" ? ["hub.cmd", "hub.exe", "hub"] : ["hub"];
  for (const dir of (pathVar ?? "").split(probe.os === "windows" ? ";" : ":")) {
    if (!dir || !p.isAbsolute(dir)) continue; // a relative PATH entry depends on the cwd
    for (const name of names) {
      const candidate = p.join(dir, name);
      const real = probe.realFile(candidate);
      if (real === undefined) continue;
      if (name === "hub.cmd") {
        // npm's Windows shim: the package sits next to it, under node_modules.
        const cjs = p.join(dir, "node_modules", "@tabhub", "hub", "bin", "hub.cjs");
        if (probe.realFile(cjs) && isThisNpmHub(cjs, probe)) return candidate;
        continue;
      }
      if (isThisNpmHub(real, probe)) return candidate;
    }
  }
  return undefined;
}

/** The stdio bridge's command: see the module comment for which one. */
export function stdioCommand(options: StdioCommandOptions): StdioCommand {
  const probe = options.probe ?? defaultProbe();
  const p = probe.os === "windows" ? win32 : posix;
  const bridge = ["start", "--stdio", "--port", String(options.port)];
  const configDir = probe.hubConfigDir;
  const env = configDir ? { env: { HUB_CONFIG_DIR: configDir } } : {};
  if (probe.standalone) return { command: probe.execPath, args: bridge, ...env };
  const hub = installedHub(probe);
  if (hub) return { command: hub, args: bridge, ...env };
  const config = p.join(p.dirname(probe.mainPath), "deno.json");
  return {
    command: probe.execPath,
    args: [
      "run",
      ...(probe.realFile(config) ? [`--config=${config}`] : []),
      ...options.permissionFlags,
      probe.mainPath,
      ...bridge,
    ],
    ...env,
  };
}
