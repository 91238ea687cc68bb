/**
 * The Deno permission flags hub runs under. This list is the single source of truth: the
 * `deno.json` tasks repeat it (a unit test keeps them identical), `hub start --background` passes it
 * to the detached server, and the end-to-end tests spawn `main.ts` with exactly these flags.
 *
 * - net: loopback only (the server listens on 127.0.0.1; the CLI talks to it).
 * - read/write: unscoped, because the config directory is chosen at run time (`HUB_CONFIG_DIR`)
 *   and local plugin folders may live anywhere under the home, temp or working directory.
 * - env: only the variables hub documents, plus the ones needed to find the home and temp dirs.
 * - run: `npm` (plugin installs), `deno` (background start), `kill` and `ps` (`hub stop`).
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
  "HUB_BACKGROUND",
  "HOME",
  "USERPROFILE",
  "TMPDIR",
  "NO_COLOR",
  "FORCE_COLOR",
  "CLICOLOR",
  "CLICOLOR_FORCE",
] as const;

export const HUB_PERMISSION_FLAGS: readonly string[] = [
  "--allow-net=127.0.0.1,localhost,[::1]",
  "--allow-read",
  "--allow-write",
  `--allow-env=${HUB_ENV_VARS.join(",")}`,
  "--allow-run=npm,deno,kill,ps",
];
