import { UserError } from "./user_error.ts";

/** An error a CLI command reports to the user; only `main.ts` turns it into an exit code. */
export class CliError extends UserError {
  constructor(message: string, readonly exitCode = 1) {
    super(message);
    this.name = "CliError";
  }
}
