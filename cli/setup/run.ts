/**
 * What `hub setup` does for one client file: read it, edit hub's entry in (or out), then either
 * show the change as a diff (`--dry-run`) or write it, and report the outcome. The file access and
 * the edits are passed in (core/mcp_clients), so the flow is tested without touching a home folder.
 */
import type { ClientFileIO } from "../../core/mcp_clients/client_file.ts";
import type { ClientFile, McpFileFormat } from "../../core/mcp_clients/clients.ts";
import type { SetupMode } from "../../core/mcp_clients/entry.ts";
import { isHubEntry } from "../../core/mcp_clients/hub_entry.ts";
import { unifiedDiff } from "./diff.ts";
import { changeReason, entryIn } from "./reason.ts";

export type SetupOutcome = "added" | "updated" | "removed" | "up-to-date" | "absent" | "refused";

export interface EditResult {
  kind: "added" | "updated" | "removed" | "up-to-date" | "absent";
  before: string;
  after: string;
}

/** The file access and the edits `hub setup` uses (core/mcp_clients; fakes in tests). */
export interface SetupDeps extends Pick<ClientFileIO, "read" | "write" | "permissionsWarning"> {
  editJson(
    text: string,
    format: McpFileFormat,
    name: string,
    entry: Record<string, unknown> | null,
    options?: { force?: boolean },
  ): EditResult;
  editToml(
    text: string,
    name: string,
    entry: Record<string, unknown> | null,
    options?: { force?: boolean },
  ): EditResult;
  /** Hub's entry for a file, in the mode given (over stdio when `transportFor` says so). */
  entry(file: ClientFile, mode: SetupMode): Record<string, unknown>;
}

export interface SetupPlan {
  /**
   * `--mode`; undefined: the existing entry's mode (see modeOf), else http (stdio for a client
   * that cannot use http).
   */
  mode?: SetupMode;
  name: string;
  remove: boolean;
  dryRun: boolean;
  /** `--force`: replace an entry with this name that hub did not write (core refuses it else). */
  force?: boolean;
  /** Said for each stdio entry written (its command lies in npx's cache: see npxWarning). */
  stdioWarning?: string;
  /** Whether an entry written in `mode` carries the secret (http and gateway do). */
  secret: string | undefined;
  /** How a path is shown (`~/…`). */
  show(path: string): string;
}

export interface ClientResult {
  client: string;
  path: string;
  outcome: SetupOutcome;
  mode?: SetupMode;
  /** How the client connects: "stdio" also for the gateway mode of a stdio-only client. */
  transport?: "http" | "stdio";
  /** Why it was updated: "secret changed", "port changed", … */
  reason?: string;
  warning?: string;
  error?: string;
  backup?: string;
  /** `--dry-run`: the change as a unified diff (the secret shortened). */
  diff?: string;
}

/**
 * The mode for a client: the one asked for, else http. A client that only starts processes
 * (Claude Desktop) connects over stdio: `--mode http` is then stdio, `--mode gateway` the gateway
 * over stdio.
 */
export function modeFor(file: ClientFile, asked: SetupMode | undefined): SetupMode {
  const http = file.transports.includes("http");
  if (!http && asked !== "gateway") return "stdio";
  return asked ?? "http";
}

/** How the client reaches hub in a mode: stdio for mode stdio and for stdio-only clients. */
export function transportFor(file: ClientFile, mode: SetupMode): "http" | "stdio" {
  return mode === "stdio" || !file.transports.includes("http") ? "stdio" : "http";
}

/**
 * A diff's text with secrets shortened to their first 8 characters: hub's secret, and every
 * `Bearer` token (an old secret being replaced, other servers' tokens shown as context).
 */
export function hideSecret(text: string, secret: string | undefined): string {
  const hidden = secret && secret.length >= 12
    ? text.split(secret).join(`${secret.slice(0, 8)}…`)
    : text;
  return hidden.replace(
    /(bearer\s+)([^\s"'\\]{12,})/gi,
    (_m, head, token: string) => `${head}${token.slice(0, 8)}…`,
  );
}

/**
 * A stdio entry names the Deno that runs this hub; under npx's cache (`npx -y deno@2 task hub …`)
 * npm may delete it, and the client then cannot start hub. Undefined for any other command.
 */
export function npxWarning(command: string): string | undefined {
  if (!/[\\/]_npx[\\/]/.test(command)) return undefined;
  return "this entry runs the Deno in npx's cache, which npm may delete: install Deno " +
    '(or "npm i -g deno") and run hub setup again with it for an entry that lasts';
}

/** Keys whose values are secrets in any server's entry (env, headers, Codex tables). */
const SECRET_KEY = /token|key|secret|passw|authorization|cookie|credential/i;
const KEY_VALUE = /(["']?)([\w.-]+)\1(\s*[:=]\s*)(["'])((?:\\.|(?!\4)[^\\])*)\4/g;
const QUERY_SECRET = /([?&][\w-]*(?:token|key|secret|passw|sig)[\w-]*=)([^&"'\s]{5,})/gi;

/**
 * One line of a diff with every secret-looking value shortened: hub's secret and Bearer tokens
 * (hideSecret), the value of a key like GITHUB_TOKEN, X-Api-Key or password (its first 4
 * characters kept), and a `token=` or `key=` in a URL.
 */
export function hideSecrets(line: string, secret: string | undefined): string {
  return hideSecret(line, secret)
    .replace(
      KEY_VALUE,
      (all, q, key: string, sep, quote, value: string) =>
        !SECRET_KEY.test(key) || value.length < 8 || /…|^bearer\s/i.test(value)
          ? all
          : `${q}${key}${q}${sep}${quote}${value.slice(0, 4)}…${quote}`,
    )
    .replace(QUERY_SECRET, (_m, head, value: string) => `${head}${value.slice(0, 4)}…`);
}

/** A project's settings file is often shared (committed): the secret must not travel with it. */
export const PROJECT_WARNING = "a project file is often committed and shared, and this one holds " +
  "hub's secret: keep it out of version control, or use --mode stdio (no secret in the file)";

/** Errors that are a bug, not a refusal of the file (those still end the command). */
const isBug = (error: unknown) =>
  error instanceof TypeError || error instanceof ReferenceError || !(error instanceof Error);

/**
 * The mode of the entry a file already holds, so an update without `--mode` keeps it: a URL to
 * `/mcp/gateway` is gateway, another URL http, a command stdio (gateway for a stdio-only client
 * whose bridge has `--gateway`). Undefined when there is no entry, or one hub did not write
 * (replaced with `--force`: it gets the default mode).
 */
export function modeOf(entry: Record<string, unknown> | undefined, file: ClientFile) {
  if (!entry || !isHubEntry(entry)) return undefined;
  const url = [entry.url, entry.serverUrl, entry.httpUrl].find((u) => typeof u === "string");
  if (typeof url === "string") {
    return /\/mcp\/gateway\/?$/.test(url) ? "gateway" : "http";
  }
  if (typeof entry.command !== "string") return undefined;
  const gateway = Array.isArray(entry.args) && entry.args.includes("--gateway");
  return gateway && !file.transports.includes("http") ? "gateway" : "stdio";
}

async function edit(file: ClientFile, plan: SetupPlan, deps: SetupDeps) {
  const read = await deps.read(file.path);
  const text = read?.text ?? "";
  const old = read === undefined ? undefined : entryIn(text, file.format, plan.name);
  const mode = modeFor(file, plan.mode ?? modeOf(old, file));
  if (plan.remove && read === undefined) {
    const result: EditResult = { kind: "absent", before: "", after: "" };
    return { result, read, reason: "", mode };
  }
  const entry = plan.remove ? null : deps.entry(file, mode);
  const force = { force: plan.force === true };
  const result = file.format === "codexToml"
    ? deps.editToml(text, plan.name, entry, force)
    : deps.editJson(text, file.format, plan.name, entry, force);
  const reason = result.kind === "updated" && entry ? changeReason(old, entry) : undefined;
  return { result, read, reason, mode };
}

/** Sets up (or removes) hub's entry in one client file; never throws for a refused file. */
export async function setupClient(
  file: ClientFile,
  plan: SetupPlan,
  deps: SetupDeps,
): Promise<ClientResult> {
  const out: ClientResult = { client: file.id ?? file.client, path: file.path, outcome: "refused" };
  try {
    const { result, read, reason, mode } = await edit(file, plan, deps);
    if (!plan.remove) {
      out.mode = mode;
      out.transport = transportFor(file, mode);
    }
    out.outcome = result.kind;
    if (reason) out.reason = reason;
    const changed = result.before !== result.after;
    const holdsSecret = !plan.remove && transportFor(file, mode) === "http";
    const warnings: string[] = [];
    if (plan.dryRun && changed) {
      const mask = (line: string) => hideSecrets(line, plan.secret);
      out.diff = unifiedDiff(plan.show(file.path), result.before, result.after, mask);
    } else if (changed) {
      const written = await deps.write(file.path, result.after, read?.mode, read?.text ?? "", {
        private: holdsSecret,
      });
      if (written.backup) out.backup = written.backup;
      warnings.push(...written.warnings ?? []);
    }
    const open = (read?.mode ?? 0) & 0o7077;
    if (holdsSecret && plan.dryRun && open) {
      warnings.push(`would be made private: was 0${(read!.mode! & 0o7777).toString(8)}`);
    } else if (holdsSecret && (read !== undefined || !plan.dryRun)) {
      const warning = await deps.permissionsWarning(file.path);
      if (warning) warnings.push(warning.split(file.path).join(plan.show(file.path)));
    }
    if (holdsSecret && file.scope === "project") warnings.push(PROJECT_WARNING);
    if (!plan.remove && plan.stdioWarning && transportFor(file, mode) === "stdio") {
      warnings.push(plan.stdioWarning);
    }
    if (warnings.length > 0) out.warning = warnings.join("; ");
  } catch (error) {
    if (isBug(error)) throw error;
    out.outcome = "refused";
    out.error = (error as Error).message;
  }
  return out;
}

/** One line per client: `claude-code  ~/.claude.json  added (http)`. */
export function resultLine(result: ClientResult, plan: SetupPlan): string {
  const head = `${result.client.padEnd(14)} ${plan.show(result.path)}  `;
  const would = plan.dryRun ? "would be " : "";
  const over = result.mode !== "stdio" && result.transport === "stdio" ? " over stdio" : "";
  const mode = result.mode ? ` (${result.mode}${over})` : "";
  let what: string;
  switch (result.outcome) {
    case "added":
      what = `${would}added${mode}`;
      break;
    case "updated":
      what = `${would}updated (${result.reason ?? "entry changed"})`;
      break;
    case "removed":
      what = `${would}removed`;
      break;
    case "up-to-date":
      what = "up to date";
      break;
    case "absent":
      what = `no "${plan.name}" entry; nothing to remove`;
      break;
    default:
      what = `refused: ${result.error}`;
  }
  const lines = [head + what];
  if (result.backup) lines.push(`  backup of the previous file: ${plan.show(result.backup)}`);
  if (result.warning) lines.push(`  warning: ${result.warning}`);
  return lines.join("\n");
}
