/**
 * The hub's own log files (`server.log`, `plugins.log`, `audit.log`) are opened for appending by
 * path. Opening a named pipe (FIFO) that way blocks until a reader comes, and a symbolic link would
 * send the hub's lines (and a chmod) to another file. So before each open the path is looked at
 * without following links (`lstat`, which never blocks): anything there but a plain file (a link,
 * a FIFO, a device node, a socket, an empty folder) is removed, and the open then creates a new
 * file. What cannot be removed (a folder with files in it) is refused with a clear error.
 */
import { clip } from "../../protocol/clip.ts";
import { fileKind, moveAwayAdvice } from "../../core/files/bounded_read.ts";

/** What is at `path`, links not followed; undefined when nothing is (or it cannot be looked at). */
export function lstatIfAny(path: string): Deno.FileInfo | undefined {
  try {
    return Deno.lstatSync(path);
  } catch {
    return undefined;
  }
}

/** What `info` is, in words, for a path looked at without following links. */
function kindOf(info: Deno.FileInfo): string {
  return info.isSymlink ? "a symbolic link" : fileKind(info);
}

/** Removes whatever is at `path` unless it is a plain file; throws a clear error if it cannot. */
export function replaceNonFile(path: string): void {
  const info = lstatIfAny(path);
  if (!info || info.isFile) return;
  try {
    Deno.removeSync(path);
  } catch (error) {
    throw new Error(clip(
      `Cannot open the log ${path}: it is ${kindOf(info)}, not a regular file, and removing it ` +
        `failed (${(error as Error).message}). Fix: ${moveAwayAdvice(path)} and start the hub ` +
        "again.",
      600,
    ));
  }
}
