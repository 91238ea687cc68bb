/**
 * Runs a commander program and turns its outcome into an exit code: user errors print one line,
 * anything else is reported as a bug with its stack. Shared by `hub` and `hub-plugin`.
 */
import { type Command, CommanderError } from "commander";
import { CliError } from "./cli_error.ts";
import { UserError } from "./user_error.ts";

export async function runProgram(program: Command, args: string[], product = "hub") {
  try {
    await program.parseAsync(args, { from: "user" });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode; // commander printed the message
    if (error instanceof UserError || error instanceof Deno.errors.NotCapable) {
      console.error(`error: ${(error as Error).message}`);
      return error instanceof CliError ? error.exitCode : 1;
    }
    console.error(
      `error (a bug in ${product}; please report it): ${(error as Error)?.stack ?? error}`,
    );
    return 1;
  }
}
