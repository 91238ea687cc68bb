/**
 * `hub setup [client…]`: writes hub's MCP entry into the settings of the clients named (or found,
 * see choose.ts), updates a stale one in place, takes it out again with `--remove`, or shows the
 * change as a diff with `--dry-run`. One line per client (or `--json`); exit 1 when a client was
 * refused. The port and secret are this hub's (`--port` wins); the secret is made when missing.
 */
import { cliPaths, cliPort, userCwd } from "../../core/client/client_context.ts";
import { homeDir } from "../../core/config/paths.ts";
import { ensureSecret, readSecret } from "../../core/config/secret.ts";
import { UserError } from "../../core/cli/user_error.ts";
import type { ClientFile, LocationContext } from "../../core/mcp_clients/clients.ts";
import { hubEntry, type SetupMode } from "../../core/mcp_clients/entry.ts";
import { stdioCommand } from "../../core/mcp_clients/stdio_command.ts";
import { editJsonEntry } from "../../core/mcp_clients/edit_json.ts";
import { editTomlEntry } from "../../core/mcp_clients/edit_toml.ts";
import { clientFileIO } from "../../core/mcp_clients/client_file.ts";
import { HUB_PERMISSION_FLAGS } from "../server/deno_permissions.ts";
import { readEnv } from "../doctor/browsers.ts";
import { printJson } from "../json_output.ts";
import { visibleText } from "../../protocol/visible_text.ts";
import { chooseTargets } from "./choose.ts";
import {
  type ClientResult,
  npxWarning,
  resultLine,
  setupClient,
  type SetupDeps,
  type SetupPlan,
  transportFor,
} from "./run.ts";

export interface SetupOptions {
  project?: boolean;
  mode?: string;
  port?: string;
  name?: string;
  yes?: boolean;
  remove?: boolean;
  dryRun?: boolean;
  json?: boolean;
  followSymlinks?: boolean;
  force?: boolean;
}

const MODES: readonly SetupMode[] = ["http", "gateway", "stdio"];
/** What a server name may be: it becomes a JSON key and a TOML table name. */
const NAME = /^[A-Za-z0-9_-]{1,64}$/;

function checkedMode(mode: string | undefined): SetupMode | undefined {
  if (mode === undefined) return undefined;
  if ((MODES as readonly string[]).includes(mode)) return mode as SetupMode;
  throw new UserError(`--mode must be http, gateway or stdio (not "${mode}").`);
}

function checkedName(name: string | undefined): string {
  const value = name ?? "hub";
  if (NAME.test(value)) return value;
  throw new UserError(
    `--name must be 1 to 64 letters, digits, "-" or "_" (not "${value.slice(0, 64)}").`,
  );
}

/** `~/…` for paths in the home folder. */
function shower(home: string): (path: string) => string {
  return (path) =>
    path.startsWith(home + "/") || path.startsWith(home + "\\")
      ? "~" + path.slice(home.length)
      : path;
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch (error) {
    return !(error instanceof Deno.errors.NotFound);
  }
}

/** The secret to write: the current one, made now when missing (a dry run makes none). */
async function secretFor(authPath: string, options: SetupOptions): Promise<string | undefined> {
  if (options.remove) return undefined;
  if (options.dryRun) return await readSecret(authPath);
  const { secret, created } = await ensureSecret(authPath);
  if (created && !options.json) console.log(`Made a new secret in ${authPath}.`);
  return secret;
}

function terminalAsk(question: string): boolean {
  const answer = prompt(question) ?? "";
  return /^y(es)?$/i.test(answer.trim());
}

function printResults(results: ClientResult[], plan: SetupPlan, json: boolean): void {
  if (json) {
    printJson({ dryRun: plan.dryRun, clients: results });
    return;
  }
  // The files' own text (a diff, an error quoting it) with hidden characters escaped.
  const show = (text: string) => console.log(visibleText(text, { lines: true }));
  for (const result of results) {
    if (result.diff) show(result.diff);
    show(resultLine(result, plan));
  }
  if (plan.dryRun) console.log("Dry run: nothing was written.");
  else if (results.some((r) => ["added", "updated", "removed"].includes(r.outcome))) {
    console.log("Restart (or reload) each changed client so it reads its new settings.");
  }
}

interface Prepared {
  files: ClientFile[];
  plan: SetupPlan;
  deps: SetupDeps;
}

/** The options checked, the clients chosen, the port and secret read: what each client needs. */
async function prepare(names: string[], options: SetupOptions): Promise<Prepared | undefined> {
  const mode = checkedMode(options.mode);
  const name = checkedName(options.name);
  const home = homeDir();
  const ctx: LocationContext = { os: Deno.build.os, home, cwd: userCwd(), env: readEnv };
  const interactive = !options.json && Deno.stdin.isTerminal() && Deno.stdout.isTerminal();
  const files = await chooseTargets(names, {
    project: options.project === true,
    yes: options.yes === true,
    dryRun: options.dryRun === true,
    remove: options.remove === true,
  }, { ctx, exists, ask: interactive ? terminalAsk : undefined, say: console.log });
  if (files.length === 0) return undefined;
  const paths = cliPaths();
  const port = await cliPort(options.port, paths);
  const secret = await secretFor(paths.auth, options);
  const stdio = stdioCommand({ port, permissionFlags: HUB_PERMISSION_FLAGS });
  const io = clientFileIO({
    home,
    roots: options.project ? [ctx.cwd] : [],
    followSymlinks: options.followSymlinks === true,
    force: options.force === true,
  });
  const deps: SetupDeps = {
    read: (path) => io.read(path),
    write: (path, text, fileMode, expected, how) => io.write(path, text, fileMode, expected, how),
    permissionsWarning: (path) => io.permissionsWarning(path),
    editJson: editJsonEntry,
    editToml: editTomlEntry,
    entry: (file, m) =>
      hubEntry(file.shape, {
        port,
        secret: secret ?? "<the secret hub start makes>",
        mode: m,
        stdio,
        transport: transportFor(file, m),
      }),
  };
  const plan: SetupPlan = {
    mode,
    name,
    remove: options.remove === true,
    dryRun: options.dryRun === true,
    force: options.force === true,
    stdioWarning: npxWarning(stdio.command),
    secret,
    show: shower(home),
  };
  return { files, plan, deps };
}

export async function setupCommand(names: string[], options: SetupOptions): Promise<void> {
  let prepared: Prepared | undefined;
  try {
    prepared = await prepare(names, options);
  } catch (error) {
    // A script reading --json gets JSON for an early error too (the text still goes to stderr).
    if (options.json && error instanceof UserError) {
      printJson({ dryRun: options.dryRun === true, clients: [], error: error.message });
    }
    throw error;
  }
  if (!prepared) return;
  const { files, plan, deps } = prepared;
  const results: ClientResult[] = [];
  for (const file of files) results.push(await setupClient(file, plan, deps));
  printResults(results, plan, options.json === true);
  const refused = results.filter((r) => r.outcome === "refused");
  if (refused.length > 0) {
    throw new UserError(
      `hub setup: ${refused.length} of ${results.length} client(s) refused ` +
        `(${refused.map((r) => r.client).join(", ")}); their files were left as they were.`,
    );
  }
}
