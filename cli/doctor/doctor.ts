/**
 * `hub doctor [--port] [--json]`: checks, in order, what hub needs to work and prints a checklist
 * (or JSON) where every warning and error names the one command or click that fixes it. Checks that
 * need the running hub are skipped when it is down; the others still run. The secret is never
 * printed. A fatal check (an error line) makes the command fail with exit code 1.
 */
import { cliPaths, userCwd } from "../../core/client/client_context.ts";
import { homeDir } from "../../core/config/paths.ts";
import type { HubConfig } from "../../core/config/schema.ts";
import { UserError } from "../../core/cli/user_error.ts";
import { listLocalPlugins } from "../../core/packages/local_plugins.ts";
import { resolveCliPort } from "../../core/config/port.ts";
import { VERSION } from "../../protocol/version.ts";
import { browserCheck, findBrowsers, readEnv, systemProbe } from "./browsers.ts";
import {
  configCheck,
  extensionInstalledCheck,
  extensionVersionCheck,
  runtimeCheck,
  secretCheck,
} from "./local_checks.ts";
import { clientFiles } from "../../core/mcp_clients/clients.ts";
import { commandExists, mcpClientsCheck, realFiles, scanClientFiles } from "./mcp_check.ts";
import { localPluginsCheck, packagesFromHealth, packagesOffline } from "./plugin_checks.ts";
import {
  buildReport,
  type Check,
  type DoctorReport,
  formatReport,
  problem,
  skip,
} from "./report.ts";
import { extensionConnectedCheck, healthCheck } from "./server_checks.ts";
import { sitePermissionsCheck } from "./site_check.ts";
import { pluginCommandContext } from "../plugin/context.ts";

async function mcpCheck(port: number, secret: string | undefined): Promise<Check> {
  let home: string;
  try {
    home = homeDir();
  } catch (error) {
    return problem("warn", "mcp_clients", "MCP clients", (error as Error).message, "set HOME");
  }
  const files = clientFiles({ os: Deno.build.os, home, cwd: userCwd(), env: readEnv });
  const target = {
    port,
    secret,
    configDir: cliPaths().dir,
    commandExists: (command: string) => commandExists(command, readEnv),
  };
  const scan = await scanClientFiles(files, target, realFiles);
  return mcpClientsCheck(scan, files.length);
}

async function pluginChecks(
  config: HubConfig | undefined,
  configDir: string,
  health: Awaited<ReturnType<typeof healthCheck>>["health"],
): Promise<Check[]> {
  if (!config) {
    const why = "skipped (config.json cannot be used)";
    return [
      skip("local_plugins", "local plugins", why),
      skip("plugin_packages", "plugin packages", why),
    ];
  }
  const locals = await listLocalPlugins(config, configDir);
  const local = await localPluginsCheck(locals, health);
  if (health) return [local, packagesFromHealth(health, locals)];
  const installed = () => pluginCommandContext().packages.installed();
  return [local, await packagesOffline(installed, readEnv("HUB_SKIP_PKG_DISCOVERY") === "1")];
}

/** Runs every check, in order, and returns the report (nothing printed). */
export async function runDoctor(options: { port?: string }): Promise<DoctorReport> {
  const paths = cliPaths();
  const checks: Check[] = [runtimeCheck(Deno.version.deno, readEnv("HUB_INSTALL") === "npm")];
  const probe = systemProbe();
  checks.push(browserCheck(await findBrowsers(probe), probe.os));
  const config = await configCheck(paths.config);
  const secret = await secretCheck(paths.auth);
  checks.push(config.check, secret.check);
  const port = resolveCliPort({
    flag: options.port,
    env: readEnv,
    configPort: config.config?.port,
  });
  const server = await healthCheck(port, secret.secret, VERSION);
  checks.push(
    server.check,
    extensionConnectedCheck(server.health, paths.extensionDir, server.skipReason),
  );
  const extension = await extensionInstalledCheck(paths.extensionDir);
  checks.push(extension.check, extensionVersionCheck(extension.manifest, VERSION));
  checks.push(await mcpCheck(port, secret.secret));
  checks.push(...await pluginChecks(config.config, paths.dir, server.health));
  // The running hub knows whether it skips permissions (config or its environment); else guess.
  const skipping = server.health?.skipPermissions ??
    (config.config?.skipPermissions === true ||
      readEnv("HUB_DANGEROUSLY_SKIP_PERMISSIONS") === "1");
  checks.push(sitePermissionsCheck(config.config, skipping));
  return buildReport(VERSION, checks);
}

export async function doctorCommand(options: { port?: string; json?: boolean }): Promise<void> {
  const report = await runDoctor(options);
  console.log(options.json ? JSON.stringify(report, null, 2) : formatReport(report));
  if (!report.ok) {
    const fatal = report.checks.filter((c) => c.status === "error").map((c) => c.title);
    throw new UserError(`hub doctor: fatal check(s) failed: ${fatal.join(", ")}.`);
  }
}
