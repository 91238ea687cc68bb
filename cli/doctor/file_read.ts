/**
 * Reading the files doctor checks (config.json, auth.json, the extension's manifest.json): never
 * more than MAX_CHECKED_FILE_BYTES, and a file that cannot be read becomes an error line whose fix
 * fits what is wrong (a folder or an oversized file is moved away, a permission is changed,
 * anything else is looked at), instead of one fix for every case.
 */
import {
  moveAwayAdvice,
  readBoundedFile,
  unusableFile,
  unusableFileMessage,
} from "../../core/files/bounded_read.ts";
import { clip } from "../../protocol/clip.ts";
import { type Check, problem } from "./report.ts";

/**
 * The most of a checked file doctor reads when the check names no bound (the extension's
 * manifest); config.json and auth.json use the hub's own bounds (core/config/file_limits.ts).
 */
export const MAX_CHECKED_FILE_BYTES = 1024 * 1024;

export interface FileFixes {
  /** The mode the file should have, for `chmod` ("600" for the config and the secret). */
  mode: string;
  /** What writes a fresh file once the unusable one is moved away. */
  remake: string;
}

/** A checked file's text and its details (mode, size) from the same look. */
export interface CheckedFile {
  text: string;
  info: Deno.FileInfo;
}

export type CheckedRead =
  | { kind: "read"; file: CheckedFile }
  | { kind: "missing" }
  | { kind: "failed"; check: Check };

/** Reads `path` for the check `id`/`title`; a failure is its error line. */
export async function readForCheck(
  path: string,
  line: { id: string; title: string },
  fixes: FileFixes,
  maxBytes = MAX_CHECKED_FILE_BYTES,
): Promise<CheckedRead> {
  try {
    const { bytes, info } = await readBoundedFile(path, { maxBytes });
    return { kind: "read", file: { text: new TextDecoder().decode(bytes), info } };
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return { kind: "missing" };
    const unusable = unusableFile(error);
    const message = unusable
      ? unusableFileMessage(path, unusable)
      : `cannot read ${path}: ${clip((error as Error).message, 200)}`;
    return {
      kind: "failed",
      check: problem("error", line.id, line.title, message, cannotReadFix(path, error, fixes)),
    };
  }
}

/** The fix for a file that exists but could not be read, by what went wrong. */
export function cannotReadFix(path: string, error: unknown, fixes: FileFixes): string {
  if (unusableFile(error)) {
    return `${moveAwayAdvice(path)}, then ${fixes.remake}`;
  }
  if (error instanceof Deno.errors.PermissionDenied) {
    return `chmod ${fixes.mode} "${path}" (as the file's owner; "ls -l" shows who that is)`;
  }
  return `look at the file ("ls -l ${path}"); if it is damaged, move it away and run ${fixes.remake}`;
}
