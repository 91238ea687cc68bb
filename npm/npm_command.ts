/** Runs `npm` as a child process for the package build and its tests, with a time limit. */

export interface NpmOptions {
  cwd?: string;
  /** Added to this process's environment (to point npm at a temp cache or another registry). */
  env?: Record<string, string>;
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 5 * 60_000;
const MAX_ERROR_CHARS = 600;

/** The last lines of `text`, at most MAX_ERROR_CHARS characters. */
export function lastLines(text: string, lines = 6): string {
  const tail = text.trim().split("\n").slice(-lines).join("\n");
  return tail.length > MAX_ERROR_CHARS ? `…${tail.slice(-MAX_ERROR_CHARS)}` : tail;
}

/** Runs `npm <args>` and returns its stdout; throws with npm's last words when it fails. */
export async function runNpm(args: string[], options: NpmOptions = {}): Promise<string> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const what = `"npm ${args.join(" ")}"${options.cwd ? ` in ${options.cwd}` : ""}`;
  const signal = AbortSignal.timeout(timeoutMs);
  let output: Deno.CommandOutput;
  try {
    output = await new Deno.Command("npm", {
      args,
      cwd: options.cwd,
      env: options.env,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      signal,
    }).output();
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      throw new Error(`Cannot run ${what}: npm is not installed (install Node.js with npm).`);
    }
    throw new Error(`Cannot run ${what}: ${(error as Error).message}`);
  }
  const stderr = new TextDecoder().decode(output.stderr);
  if (signal.aborted) {
    throw new Error(`${what} did not finish within ${timeoutMs / 1000} s: ${lastLines(stderr)}`);
  }
  if (!output.success) {
    throw new Error(`${what} failed (exit ${output.code}): ${lastLines(stderr) || "no output"}`);
  }
  return new TextDecoder().decode(output.stdout);
}
