/**
 * `hub` entry point: `deno run <permissions> main.ts <args>` behaves exactly like `hub <args>`.
 * This is the only place that decides the process exit code.
 */
import { buildProgram } from "./cli/program.ts";
import { runProgram } from "./core/run_program.ts";

export function main(args: string[]): Promise<number> {
  return runProgram(buildProgram(), args);
}

if (import.meta.main) Deno.exit(await main(Deno.args));
