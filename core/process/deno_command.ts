/**
 * Which command runs Deno again from this process: this binary where the run permission names its
 * path, else `deno` where that is allowed (the scoped flags name "deno", which may resolve to
 * another path than this binary, such as a symlink); undefined when neither may run.
 */
export function denoCommand(): string | undefined {
  const allowed = (command: string) =>
    Deno.permissions.querySync({ name: "run", command }).state === "granted";
  const exec = Deno.execPath();
  return allowed(exec) ? exec : allowed("deno") ? "deno" : undefined;
}
