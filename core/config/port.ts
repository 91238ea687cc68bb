/** Which port a command talks to (or the server listens on), and why. */
import { UserError } from "../cli/user_error.ts";
import { DEFAULT_PORT } from "./schema.ts";

export { DEFAULT_PORT };

/** Parses a port; `allowZero` accepts 0 ("any free port") for the server. */
export function parsePort(value: string | number, source: string, allowZero = false): number {
  const text = String(value).trim();
  const port = /^\d+$/.test(text) ? Number(text) : NaN;
  const min = allowZero ? 0 : 1;
  if (!Number.isInteger(port) || port < min || port > 65535) {
    throw new UserError(
      `${source} "${value}" is not a valid port: use a whole number from ${min} to 65535.`,
    );
  }
  return port;
}

export interface PortSources {
  flag?: string;
  env: (name: string) => string | undefined;
  configPort?: number;
}

/** CLI commands: `--port`, then `HUB_PORT`, then config `port`, then 9515. */
export function resolveCliPort(sources: PortSources): number {
  if (sources.flag !== undefined) return parsePort(sources.flag, "--port");
  const fromEnv = sources.env("HUB_PORT");
  if (fromEnv) return parsePort(fromEnv, "HUB_PORT");
  if (sources.configPort !== undefined) return parsePort(sources.configPort, "config port");
  return DEFAULT_PORT;
}

/**
 * The server (`hub start`): `--port`, then `PORT` (what servers conventionally read), then the
 * CLI's own sources, so that `hub start` and `hub status` agree on a machine set up with HUB_PORT
 * or config.
 */
export function resolveServerPort(sources: PortSources): number {
  if (sources.flag !== undefined) return parsePort(sources.flag, "--port", true);
  const fromEnv = sources.env("PORT");
  if (fromEnv) return parsePort(fromEnv, "PORT", true);
  return resolveCliPort({ env: sources.env, configPort: sources.configPort });
}
