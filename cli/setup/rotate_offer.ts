/**
 * After `hub config rotate-secret`: the clients whose hub entry still holds the old secret (found
 * as `hub doctor` finds stale entries), and the `hub setup` commands that update them, run at once
 * when the person says yes on a terminal.
 */
import { userCwd } from "../../core/client/client_context.ts";
import { homeDir } from "../../core/config/paths.ts";
import { clientFiles, type ClientId } from "../../core/mcp_clients/clients.ts";
import { readEnv } from "../doctor/browsers.ts";
import {
  canSetup,
  realFiles,
  scanClientFiles,
  setupCommandLine,
  type SetupRun,
  setupRuns,
  type StaleEntry,
} from "../doctor/mcp_check.ts";

/** The clients to set up again, per scope, from the files holding a stale hub entry. */
export interface StaleClients {
  user: ClientId[];
  project: ClientId[];
  /** Stale entries in files `hub setup` does not write (VS Code settings.json, Insiders). */
  others: string[];
  /** The `hub setup` command lines that update them (doctor's, with this command's `--port`). */
  commands: string[];
  /** The same as runs (per scope and entry name), for the "Update them now?" path. */
  runs: SetupRun[];
}

/** Sorts stale entries into the `hub setup` runs that fix them. */
export function staleClients(stale: StaleEntry[], portFlag?: string): StaleClients {
  const files = stale.map((s) => "file" in s ? s.file : s);
  const ids = (scope: "user" | "project") => [
    ...new Set(files.filter((f) => f.id && f.scope === scope).map((f) => f.id!)),
  ];
  const port = portFlag === undefined ? "" : ` --port ${portFlag}`;
  const runs = setupRuns(stale);
  return {
    user: ids("user"),
    project: ids("project"),
    others: [
      ...new Set(
        stale.filter((s) => !canSetup(s)).map((s) => "file" in s ? s.file : s)
          .map((f) => `${f.client} (${f.path})`),
      ),
    ],
    commands: runs.map((r) => setupCommandLine(r) + port),
    runs,
  };
}

/** The client files whose hub entry is stale for this port and secret. */
export async function findStale(
  port: number,
  secret: string,
  portFlag?: string,
): Promise<StaleClients> {
  const ctx = { os: Deno.build.os, home: homeDir(), cwd: userCwd(), env: readEnv };
  const scan = await scanClientFiles(clientFiles(ctx), { port, secret }, realFiles);
  return staleClients(scan.findings.filter((f) => f.verdict.kind === "stale"), portFlag);
}

/**
 * Says which clients still hold the old secret and how to update them; on a terminal, offers to
 * do it now. Never fails the rotation: a client file that cannot be read is left to `hub doctor`.
 */
export async function offerSetup(port: number, secret: string, portFlag?: string): Promise<void> {
  let stale: StaleClients;
  try {
    stale = await findStale(port, secret, portFlag);
  } catch {
    console.log('Update your MCP clients: "hub setup" writes the new secret into their settings.');
    return;
  }
  const commands = stale.commands;
  for (const other of stale.others) {
    console.log(`Still holds the old secret (hub setup does not write it): ${other}`);
  }
  if (commands.length === 0) {
    if (stale.others.length === 0) {
      console.log('No MCP client set up for hub was found; "hub setup" connects them.');
    }
    return;
  }
  const names = [...stale.user, ...stale.project].join(", ");
  console.log(
    `Connected clients still hold the old secret (${names}): run ` +
      `${commands.map((c) => `"${c}"`).join(" and ")} to update them.`,
  );
  if (!Deno.stdin.isTerminal() || !Deno.stdout.isTerminal()) return;
  if (!/^y(es)?$/i.test((prompt("Update them now? [y/N]") ?? "").trim())) return;
  const { setupCommand } = await import("./setup.ts");
  // Each run keeps the entry's name; `hub setup` keeps the entry's mode (http, gateway, stdio).
  for (const run of stale.runs) {
    await setupCommand(run.ids, {
      yes: true,
      project: run.project,
      name: run.name,
      port: portFlag,
    });
  }
}
