/**
 * The Deno permissions `hub` and `hub-plugin` run under: their flags, one list each (not the
 * plugins' permissions, which are grants in config.json).
 */
import { TELEMETRY_HOST } from "../../core/telemetry/endpoint.ts";
import { LOOPBACK_HOSTS } from "../../protocol/loopback.ts";

/** The loopback hosts, as `--allow-net` lists them. */
const LOOPBACK_NET = [...LOOPBACK_HOSTS].join(",");

/**
 * The Deno permission flags hub runs under. This list is the single source of truth: the
 * `deno.json` tasks repeat it (a unit test keeps them identical), `hub start --background` passes it
 * to the detached server, and the end-to-end tests spawn `main.ts` with exactly these flags.
 *
 * - net: loopback (the server listens on 127.0.0.1; the CLI talks to it), and the one host of
 *   the telemetry endpoint (core/telemetry/endpoint.ts), nothing else.
 * - read/write: unscoped, because the config directory is chosen at run time (`HUB_CONFIG_DIR`)
 *   and local plugin folders may live anywhere under the home, temp or working directory.
 * - env: only the variables hub documents, plus the ones needed to find the home and temp dirs.
 * - run: `npm` (plugin packages), `deno` (background start), `kill` and `ps` (`hub stop`), and
 *   the desktop's folder opener for the side panel's "Open folder" of a local plugin: `xdg-open`
 *   (Linux), `open` (macOS), `explorer` (Windows). One list serves every system, so each lists all
 *   three; the hub only ever runs its own system's opener (server/extension/folder_open.ts).
 *
 * `INIT_CWD` is the folder `deno task` was started from (relative paths resolve against it).
 * `HUB_INSTALL=npm` and `HUB_NPM_PACKAGE_DIR` are set by the npm wrapper: how hub was installed
 * and where, so that `hub update` can update that install. `HUB_NPM_ROOT` (also set by the
 * wrapper) is the node_modules folder it is installed in, where plugin discovery looks.
 * `hub doctor` reads `PATH`, `ProgramFiles` and `LOCALAPPDATA` to find installed browsers, and
 * `XDG_CONFIG_HOME`, `APPDATA` and `CODEX_HOME` (Codex's folder) to find MCP clients' config files.
 * `HUB_TELEMETRY_ENDPOINT` points telemetry at a local receiver in tests (docs/telemetry.md).
 */
export const HUB_ENV_VARS = [
  "HUB_CONFIG_DIR",
  "HUB_PORT",
  "PORT",
  "HUB_DEV",
  "HUB_LOG_LEVEL",
  "HUB_DANGEROUSLY_SKIP_PERMISSIONS",
  "HUB_SKIP_PKG_DISCOVERY",
  "HUB_TELEMETRY_DISABLED",
  "DO_NOT_TRACK",
  "HUB_TELEMETRY_DEBUG",
  "HUB_TELEMETRY_ENDPOINT",
  "HUB_BACKGROUND",
  "HUB_INSTALL",
  "HUB_NPM_PACKAGE_DIR",
  "HUB_NPM_ROOT",
  "HOME",
  "USERPROFILE",
  "TMPDIR",
  "NO_COLOR",
  "FORCE_COLOR",
  "CLICOLOR",
  "CLICOLOR_FORCE",
  "INIT_CWD",
  "PATH",
  "XDG_CONFIG_HOME",
  "APPDATA",
  "LOCALAPPDATA",
  "ProgramFiles",
  "CODEX_HOME",
] as const;

export const HUB_PERMISSION_FLAGS: readonly string[] = [
  `--allow-net=${LOOPBACK_NET},${TELEMETRY_HOST}`,
  "--allow-read",
  "--allow-write",
  `--allow-env=${HUB_ENV_VARS.join(",")}`,
  "--allow-run=npm,deno,kill,ps,xdg-open,open,explorer",
  // Deno prints an "Info Failed to resolve '<program>' for allow-run" line for every listed
  // program this system lacks (no system has all three folder openers) before any subprocess;
  // hub reports its own errors, so Deno's info lines are off.
  "--quiet",
];

/**
 * The flags of `hub-plugin`, a developer tool that bundles the author's own code with esbuild.
 * esbuild runs a native helper binary from the npm cache and hands it the whole environment, so
 * run and env cannot be scoped; network stays loopback-only (to reach a running hub).
 */
export const PLUGIN_CLI_PERMISSION_FLAGS: readonly string[] = [
  `--allow-net=${LOOPBACK_NET}`,
  "--allow-read",
  "--allow-write",
  "--allow-env",
  "--allow-run",
];
