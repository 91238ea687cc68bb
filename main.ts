/**
 * `hub` entry point: `deno run <permissions> main.ts <args>` behaves exactly like `hub <args>`.
 * This is the only place that decides the process exit code.
 */
import { CommanderError } from "commander";
import { buildProgram } from "./cli/program.ts";
import { CliError } from "./cli/cli_error.ts";
import { ConfigError } from "./server/config/config_store.ts";

export async function main(args: string[]): Promise<number> {
  try {
    await buildProgram().parseAsync(args, { from: "user" });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode; // commander printed the message
    if (error instanceof CliError) {
      console.error(`error: ${error.message}`);
      return error.exitCode;
    }
    if (error instanceof ConfigError || error instanceof Deno.errors.NotCapable) {
      console.error(`error: ${(error as Error).message}`);
      return 1;
    }
    console.error(`error: ${(error as Error)?.stack ?? error}`);
    return 1;
  }
}

if (import.meta.main) Deno.exit(await main(Deno.args));
