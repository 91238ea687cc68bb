/**
 * Runs the `npm` command for `hub update`. npm does the networking, under the user's own npm
 * config (registry, proxy, CA, auth), so hub keeps its loopback-only network permission. Every
 * call has a time limit; npm missing is a user error.
 */
import { CliError } from "../core/cli_error.ts";

export interface NpmResult {
  code: number;
  stdout: string;
  stderr: string;
  /** The call ran past its time limit and was stopped. */
  timedOut: boolean;
}

export type NpmRunner = (args: string[], timeoutMs: number) => Promise<NpmResult>;

/** How long npm gets after SIGTERM before SIGKILL. */
const KILL_GRACE_MS = 5_000;

/** Runs npm (tests pass another command to see how a missing or slow npm is handled). */
export function npmRunner(command = "npm"): NpmRunner {
  return (args, timeoutMs) => run(command, args, timeoutMs);
}

export const runNpm: NpmRunner = npmRunner();

async function run(command: string, args: string[], timeoutMs: number): Promise<NpmResult> {
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(command, { args, stdin: "null", stdout: "piped", stderr: "piped" })
      .spawn();
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      throw new CliError(
        `"hub update" needs npm, and npm is not on the PATH. Install Node.js (it comes with ` +
          `npm), or fix the PATH, then run "hub update" again.`,
      );
    }
    throw new CliError(`Cannot run npm: ${(error as Error).message}`);
  }
  let timedOut = false;
  let killTimer: ReturnType<typeof setTimeout> | undefined;
  const timer = setTimeout(() => {
    timedOut = true;
    kill(child, "SIGTERM");
    killTimer = setTimeout(() => kill(child, "SIGKILL"), KILL_GRACE_MS);
  }, timeoutMs);
  const out = await child.output().finally(() => {
    clearTimeout(timer);
    clearTimeout(killTimer);
  });
  const dec = new TextDecoder();
  return {
    code: out.code,
    stdout: dec.decode(out.stdout),
    stderr: dec.decode(out.stderr),
    timedOut,
  };
}

function kill(child: Deno.ChildProcess, signal: Deno.Signal): void {
  try {
    child.kill(signal);
  } catch {
    // already exited
  }
}

/** The last lines npm wrote (its `npm error` lines), one line, bounded. */
export function npmErrorText(result: NpmResult, max = 300): string {
  const lines = (result.stderr + "\n" + result.stdout).split("\n")
    .map((line) => line.replace(/^npm (error|ERR!)\s*/, "").trim())
    .filter((line) => line && !/^A complete log of this run/.test(line) && !/^\s*at /.test(line));
  const text = lines.slice(0, 4).join(" / ") || `exit code ${result.code}`;
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
