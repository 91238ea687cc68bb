/**
 * Which client files `hub setup` works on: the clients named, or else the ones found on this
 * machine (a client counts as present when its settings file or its folder exists), taken with
 * `--yes` or `--dry-run`, or after one question on a terminal.
 */
import { posix, win32 } from "node:path";
import {
  CLIENT_IDS,
  type ClientFile,
  type ClientId,
  clientMarkers,
  isClientId,
  type LocationContext,
  setupTarget,
} from "../../core/mcp_clients/clients.ts";
import { UserError } from "../../core/cli/user_error.ts";

export interface ChooseOptions {
  project: boolean;
  yes: boolean;
  dryRun: boolean;
  remove: boolean;
}

export interface ChooseDeps {
  ctx: LocationContext;
  /** Whether a file or folder exists (a broken or unreadable one counts as present). */
  exists(path: string): Promise<boolean>;
  /** Asks a yes/no question on the terminal; undefined when there is none (or `--json`). */
  ask?: (question: string) => boolean;
  /** Prints a line for the person (stdout). */
  say(line: string): void;
}

const scopeOf = (o: ChooseOptions) => (o.project ? "project" : "user");

function target(id: ClientId, options: ChooseOptions, ctx: LocationContext): ClientFile {
  const file = setupTarget(id, scopeOf(options), ctx);
  if (file) return file;
  const others = CLIENT_IDS.filter((c) => setupTarget(c, "project", ctx)).join(", ");
  throw new UserError(
    `${id} has no project settings file; leave out --project to set it up for your user ` +
      `(--project works for: ${others}).`,
  );
}

/** The paths whose existence shows a client is installed (for the scope asked). */
function markers(id: ClientId, options: ChooseOptions, ctx: LocationContext): string[] {
  if (!options.project) return clientMarkers(id, ctx);
  const p = ctx.os === "windows" ? win32 : posix;
  const file = setupTarget(id, "project", ctx)?.path;
  if (file === undefined) return [];
  const folder = p.dirname(file);
  // `.mcp.json` lies in the project folder itself: Claude Code's own folder shows it instead.
  return folder === ctx.cwd ? [file, p.join(ctx.cwd, ".claude")] : [file, folder];
}

/** The clients present on this machine (or in this project, with `--project`). */
export async function detectClients(options: ChooseOptions, deps: ChooseDeps): Promise<ClientId[]> {
  const found: ClientId[] = [];
  for (const id of CLIENT_IDS) {
    for (const path of markers(id, options, deps.ctx)) {
      if (await deps.exists(path)) {
        found.push(id);
        break;
      }
    }
  }
  return found;
}

function namedTargets(names: string[], options: ChooseOptions, ctx: LocationContext) {
  const unknown = names.filter((n) => !isClientId(n));
  if (unknown.length > 0) {
    throw new UserError(
      `Unknown client "${unknown[0]}". Clients: ${CLIENT_IDS.join(", ")}.`,
    );
  }
  const ids = [...new Set(names)] as ClientId[];
  return ids.map((id) => target(id, options, ctx));
}

/** The files to work on; empty when the person said no. Throws a UserError for bad names. */
export async function chooseTargets(
  names: string[],
  options: ChooseOptions,
  deps: ChooseDeps,
): Promise<ClientFile[]> {
  if (names.length > 0) return namedTargets(names, options, deps.ctx);
  const found = await detectClients(options, deps);
  const where = options.project ? "in this folder" : "on this machine";
  if (found.length === 0) {
    throw new UserError(
      `No MCP client found ${where}. Name the clients to set up: ` +
        `"hub setup <client>…" (clients: ${CLIENT_IDS.join(", ")}).`,
    );
  }
  const files = found.map((id) => target(id, options, deps.ctx));
  if (options.yes || options.dryRun) return files;
  const verb = options.remove ? "Remove hub from" : "Set up hub in";
  if (deps.ask) {
    if (deps.ask(`${verb} ${found.join(", ")}? [y/N]`)) return files;
    deps.say("Nothing changed.");
    return [];
  }
  throw new UserError(
    `Found ${found.join(", ")} ${where}; nothing was changed. Pass --yes to ` +
      `${options.remove ? "remove hub from" : "set up"} all of them, or name them: ` +
      `"hub setup ${options.remove ? "--remove " : ""}${found[0]}".`,
  );
}
