/**
 * After `hub config rotate-secret`: the clients whose hub entry still holds the old secret (found
 * as `hub doctor` finds stale entries), and the `hub setup` commands that update them, run at once
 * when the person says yes on a terminal.
 */
import { userCwd } from "../../core/client/client_context.ts";
import { homeDir } from "../../core/config/paths.ts";
import { type ClientFile, clientFiles, type ClientId } from "../../core/mcp_clients/clients.ts";
import { readEnv } from "../doctor/browsers.ts";
import { realFiles, scanClientFiles, setupCommands } from "../doctor/mcp_check.ts";

/** The clients to set up again, per scope, from the files holding a stale hub entry. */
export interface StaleClients {
  user: ClientId[];
  project: ClientId[];
  /** Stale entries in files `hub setup` does not write (VS Code settings.json, Insiders). */
  others: string[];
  /** The `hub setup` command lines that update them (doctor's, with this command's `--port`). */
  commands: string[];
}

/** Sorts stale files into the `hub setup` runs that fix them. */
export function staleClients(files: ClientFile[], portFlag?: string): StaleClients {
  const ids = (scope: "user" | "project") => [
    ...new Set(files.filter((f) => f.id && f.scope === scope).map((f) => f.id!)),
  ];
  const port = portFlag === undefined ? "" : ` --port ${portFlag}`;
  return {
    user: ids("user"),
    project: ids("project"),
    others: files.filter((f) => !f.id).map((f) => `${f.client} (${f.path})`),
    commands: setupCommands(files).map((c) => c + port),
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
  const stale = scan.findings.filter((f) => f.verdict.kind === "stale").map((f) => f.file);
  return staleClients(stale.filter((f, i) => stale.indexOf(f) === i), portFlag);
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
  if (stale.user.length > 0) await setupCommand(stale.user, { yes: true, port: portFlag });
  if (stale.project.length > 0) {
    await setupCommand(stale.project, { yes: true, project: true, port: portFlag });
  }
}
