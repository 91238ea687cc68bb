/**
 * The `hub start` command line, read without commander. commander needs `node:fs`,
 * `node:child_process` and `node:events`, which load Deno's Node compatibility layer: about 20 ms,
 * an eighth of a hub's start. The lines that start a hub (typed by a user, or written once into an
 * MCP client's config) are read here:
 *
 *     hub [--port N] start [--port N] [--background] [--show-config] [--dev] [--stdio] [--gateway]
 *
 * each option at most once, `--port N` or `--port=N`. Any other line (help, a typo, a repeated or
 * misplaced option, another command) is left to commander (cli/program.ts), which stays the
 * definition of the command line: start_args_test.ts checks that both read the same way every line
 * of up to four words (from these options, `-h`, `--` and a stray word) that this file accepts.
 */
import { UserError } from "../../core/cli/user_error.ts";

export interface StartArgs {
  port?: string;
  background?: true;
  showConfig?: true;
  dev?: true;
  stdio?: true;
  gateway?: true;
}

type Flag = Exclude<keyof StartArgs, "port">;

const START_FLAGS = new Map<string, Flag>([
  ["--background", "background"],
  ["--show-config", "showConfig"],
  ["--dev", "dev"],
  ["--stdio", "stdio"],
  ["--gateway", "gateway"],
]);

/** The options of a plain `hub start` line, or undefined when commander must read the line. */
export function readStartArgs(args: readonly string[]): StartArgs | undefined {
  const read: StartArgs = {};
  let command = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "start" && !command) {
      command = true;
      continue;
    }
    if (arg === "--port" || arg.startsWith("--port=")) {
      const value = arg === "--port" ? args[++i] : arg.slice("--port=".length);
      if (read.port !== undefined || !value || value.startsWith("-")) return undefined;
      read.port = value;
      continue;
    }
    const flag = command ? START_FLAGS.get(arg) : undefined;
    if (flag === undefined || read[flag]) return undefined;
    read[flag] = true;
  }
  return command ? read : undefined;
}

/** Checks the combination, then runs the hub server, or the stdio bridge to a running one. */
export async function runStart(options: StartArgs): Promise<void> {
  if (options.gateway && !options.stdio) throw new UserError("--gateway only goes with --stdio.");
  // The bridge brings the MCP SDK's client; `hub start` does not load it.
  if (options.stdio) return (await import("../stdio/bridge.ts")).stdioBridge(options);
  return (await import("./start.ts")).startCommand(options);
}
