/**
 * Reading files: text that may not exist yet, and JSON with errors that name the file and spot.
 * Every read is bounded (core/bounded_read.ts): regular files only, up to a size, in bounded time.
 */
import { describeJsonError, loadJsonErrors } from "./json_errors.ts";
import {
  readBoundedFile,
  readBoundedText,
  readBoundedTextIfExists,
  UnusableFileError,
} from "../bounded_read.ts";
import { parseBoundedJson } from "../json_depth.ts";

/** The most of a JSON file read when the caller names no bound. */
export const MAX_JSON_FILE_BYTES = 1024 * 1024;

/**
 * Reads and parses `path` (at most `maxBytes`, nested at most MAX_JSON_DEPTH deep); throws an Error
 * saying which file and what is wrong: missing ("… does not exist"), unusable (UnusableFileError:
 * not a regular file, too large, too slow), unreadable, or where it is broken.
 */
export async function readJsonFile(
  path: string,
  maxBytes = MAX_JSON_FILE_BYTES,
): Promise<unknown> {
  let text: string;
  try {
    text = await readBoundedText(path, { maxBytes });
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) throw new Error(`${path} does not exist`);
    if (error instanceof UnusableFileError) throw error;
    throw new Error(`Cannot read ${path}: ${(error as Error).message}`);
  }
  try {
    return parseBoundedJson(text);
  } catch (error) {
    await loadJsonErrors().catch(() => {}); // described with V8's message then
    throw new Error(
      `${path} is not valid JSON${describeJsonError(text, (error as Error).message)}`,
    );
  }
}

/**
 * The file's text (at most `maxBytes`), or undefined when it does not exist; other errors,
 * UnusableFileError among them, are thrown.
 */
export function readTextIfExists(
  path: string,
  maxBytes = MAX_JSON_FILE_BYTES,
): Promise<string | undefined> {
  return readBoundedTextIfExists(path, { maxBytes });
}

export { UnusableFileError } from "../bounded_read.ts";

/** A small file's text and the file's details (mode, size) from the same look. */
export interface SmallFile {
  text: string;
  info: Deno.FileInfo;
}

/**
 * Reads a file that should be small, never more than `maxBytes` of it: undefined when it does not
 * exist; UnusableFileError when it is not a regular file (a folder, a pipe, a device) or is larger;
 * other errors (no permission, I/O) are thrown as they come.
 */
export async function readSmallFileIfExists(
  path: string,
  maxBytes: number,
): Promise<SmallFile | undefined> {
  try {
    const { bytes, info } = await readBoundedFile(path, { maxBytes });
    return { text: new TextDecoder().decode(bytes), info };
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
}
