/**
 * Runs a commander program and turns its outcome into an exit code (see exit_code.ts); commander
 * prints its own errors (unknown option, missing value). Shared by `hub` and `hub-plugin`.
 */
import { type Command, CommanderError } from "commander";
import { exitCodeFor } from "./exit_code.ts";

export async function runProgram(program: Command, args: string[], product = "hub") {
  try {
    await program.parseAsync(args, { from: "user" });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode; // commander printed the message
    return exitCodeFor(error, product);
  }
}
