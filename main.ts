/**
 * `hub` entry point: `deno run <permissions> main.ts <args>` behaves exactly like `hub <args>`.
 * This is the only place that decides the process exit code. A plain `hub start` line is read
 * without commander (cli/server/start_args.ts); every other line goes through the commander program.
 */
import { readStartArgs, runStart } from "./cli/server/start_args.ts";
import { exitCodeFor } from "./core/cli/exit_code.ts";

export async function main(args: string[]): Promise<number> {
  const start = readStartArgs(args);
  if (start) return await runStart(start).then(() => 0, (error) => exitCodeFor(error));
  const [{ buildProgram }, { runProgram }] = await Promise.all([
    import("./cli/program.ts"),
    import("./core/cli/run_program.ts"),
  ]);
  return runProgram(buildProgram(), args);
}

if (import.meta.main) Deno.exit(await main(Deno.args));
