/**
 * Reading a JSON file with errors that name the file and the spot. The read is bounded
 * (core/files/bounded_read.ts): a regular file only, up to the caller's size, in bounded time; other
 * bounded reads (text that may not exist, a file with its details) call that module directly.
 */
import { describeJsonError, loadJsonErrors } from "./json_errors.ts";
import { readBoundedText, unusableFile } from "./bounded_read.ts";
import { parseBoundedJson } from "./json_depth.ts";

/**
 * Reads and parses `path` (at most `maxBytes`, nested at most MAX_JSON_DEPTH deep); throws an Error
 * saying which file and what is wrong: missing ("… does not exist"), unusable (`unusableFileError`:
 * not a regular file, too large, too slow), unreadable, or where it is broken.
 */
export async function readJsonFile(path: string, maxBytes: number): Promise<unknown> {
  let text: string;
  try {
    text = await readBoundedText(path, { maxBytes });
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) throw new Error(`${path} does not exist`);
    if (unusableFile(error)) throw error;
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
