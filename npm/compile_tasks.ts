/**
 * Runs the `deno compile` tasks of a release. `deno compile` downloads a runtime base binary
 * (denort) from Deno's download server; where that host cannot be reached, the task is reported
 * as skipped with the reason, never as built. Any other failure is a real one.
 */
import { lastLines } from "./npm_command.ts";

export type CompileOutcome =
  | { task: string; status: "built" }
  | { task: string; status: "skipped"; reason: string }
  | { task: string; status: "failed"; reason: string };

const DEFAULT_TIMEOUT_MS = 10 * 60_000;

/** The line of `deno compile`'s error output that says why the base binary was not fetched. */
export function baseBinaryProblem(stderr: string): string | undefined {
  // deno prints its messages in color unless NO_COLOR is set
  // deno-lint-ignore no-control-regex
  const text = stderr.replace(/\x1b\[[0-9;]*m/g, "");
  if (!/base binary|denort|dl\.deno\.land/i.test(text)) return undefined;
  const lines = text.split("\n").map((line) => line.trim());
  const cause = lines.find((line) => /error sending request|dns error|connect/i.test(line)) ??
    lines.find((line) => line.startsWith("error:")) ?? "could not download";
  return cause.replace(/^\d+:\s*/, "").slice(0, 300);
}

/** Runs `deno task <task>` in `root` and says whether it built, was skipped, or failed. */
export async function runCompileTask(
  root: string,
  task: string,
  timeoutMs = DEFAULT_TIMEOUT_MS,
): Promise<CompileOutcome> {
  const signal = AbortSignal.timeout(timeoutMs);
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["task", task],
    cwd: root,
    env: { NO_COLOR: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    signal,
  }).output();
  const stderr = new TextDecoder().decode(output.stderr);
  if (signal.aborted) {
    return { task, status: "failed", reason: `did not finish within ${timeoutMs / 1000} s` };
  }
  if (output.success) return { task, status: "built" };
  const problem = baseBinaryProblem(stderr);
  if (problem) {
    return {
      task,
      status: "skipped",
      reason: `deno compile cannot download its base binary here (${problem})`,
    };
  }
  return { task, status: "failed", reason: lastLines(stderr) || `exit code ${output.code}` };
}
