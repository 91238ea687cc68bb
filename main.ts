/**
 * `hub` entry point: `deno run <permissions> main.ts <args>` behaves exactly like `hub <args>`.
 * This is the only place that decides the process exit code.
 */
import { CommanderError } from "commander";
import { buildProgram } from "./cli/program.ts";
import { CliError } from "./cli/cli_error.ts";
import { UserError } from "./server/user_error.ts";

export async function main(args: string[]): Promise<number> {
  try {
    await buildProgram().parseAsync(args, { from: "user" });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode; // commander printed the message
    if (error instanceof UserError || error instanceof Deno.errors.NotCapable) {
      console.error(`error: ${(error as Error).message}`);
      return error instanceof CliError ? error.exitCode : 1;
    }
    console.error(`error (a bug in hub; please report it): ${(error as Error)?.stack ?? error}`);
    return 1;
  }
}

if (import.meta.main) Deno.exit(await main(Deno.args));
