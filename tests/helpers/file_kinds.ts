/**
 * Files that are not regular files, for tests of bounded reads: a named pipe (FIFO) made with
 * `mkfifo`, and a symbolic link to a device such as /dev/zero. Linux and macOS only.
 */

/** Makes a FIFO at `path` (nothing ever writes to it: opening it to read would block). */
export async function makeFifo(path: string): Promise<void> {
  const out = await new Deno.Command("mkfifo", { args: [path], stderr: "piped" }).output();
  if (!out.success) {
    throw new Error(`mkfifo ${path} failed: ${new TextDecoder().decode(out.stderr).trim()}`);
  }
}

/** Replaces whatever is at `path` with a link to /dev/zero (endless zero bytes). */
export async function linkToDevZero(path: string): Promise<void> {
  await Deno.remove(path).catch(() => {});
  await Deno.symlink("/dev/zero", path);
}

/** Replaces whatever is at `path` with a FIFO. */
export async function replaceWithFifo(path: string): Promise<void> {
  await Deno.remove(path).catch(() => {});
  await makeFifo(path);
}
