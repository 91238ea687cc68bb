/**
 * The exit code of a command that failed, with what the person sees: a user error prints one line,
 * anything else is reported as a bug with its stack. Shared by `hub` and `hub-plugin`.
 */
import { UserError } from "./user_error.ts";
import { visibleText } from "../../protocol/visible_text.ts";

export function exitCodeFor(error: unknown, product = "hub"): number {
  if (error instanceof UserError || error instanceof Deno.errors.NotCapable) {
    // A message may quote a plugin's or a registry's words: hidden characters are escaped.
    console.error(`error: ${visibleText(String((error as Error).message), { lines: true })}`);
    return error instanceof UserError ? error.exitCode : 1;
  }
  console.error(
    `error (a bug in ${product}; please report it): ${(error as Error)?.stack ?? error}`,
  );
  return 1;
}
