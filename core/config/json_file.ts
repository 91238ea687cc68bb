/** Reading files: text that may not exist yet, and JSON with errors that name the file and spot. */
import { describeJsonError, loadJsonErrors } from "./json_errors.ts";
import { concatBytes } from "../../protocol/bytes.ts";

/** Reads and parses `path`; throws an Error saying which file and where it is broken. */
export async function readJsonFile(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) throw new Error(`${path} does not exist`);
    throw new Error(`Cannot read ${path}: ${(error as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    await loadJsonErrors().catch(() => {}); // described with V8's message then
    throw new Error(
      `${path} is not valid JSON${describeJsonError(text, (error as Error).message)}`,
    );
  }
}

/** The file's text, or undefined when it does not exist; other errors are thrown. */
export async function readTextIfExists(path: string): Promise<string | undefined> {
  try {
    return await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
}

/** Why a file could not be used although it exists: it is not a regular file, or it is too big. */
export class UnusableFileError extends Error {
  constructor(readonly path: string, readonly kind: "not_a_file" | "too_large", detail: string) {
    super(`${path} ${detail}`);
    this.name = "UnusableFileError";
  }
}

/** A small file's text and the file's details (mode, size) from the same look. */
export interface SmallFile {
  text: string;
  info: Deno.FileInfo;
}

/**
 * Reads a file that should be small, never more than `maxBytes` of it: undefined when it does not
 * exist; UnusableFileError when it is not a regular file (a folder, a pipe) or is larger; other
 * errors (no permission, I/O) are thrown as they come.
 */
export async function readSmallFileIfExists(
  path: string,
  maxBytes: number,
): Promise<SmallFile | undefined> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
  if (!info.isFile) throw new UnusableFileError(path, "not_a_file", "is not a file (a folder?)");
  const tooLarge = () =>
    new UnusableFileError(path, "too_large", `is larger than ${maxBytes} bytes, the most read`);
  if (info.size > maxBytes) throw tooLarge();
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path, { read: true });
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined; // removed meanwhile
    throw error;
  }
  try {
    const chunks: Uint8Array[] = [];
    let size = 0;
    while (size <= maxBytes) {
      const chunk = new Uint8Array(Math.min(64 * 1024, maxBytes + 1 - size));
      const n = await file.read(chunk);
      if (n === null) break;
      chunks.push(chunk.subarray(0, n));
      size += n;
    }
    if (size > maxBytes) throw tooLarge(); // it grew meanwhile
    return { text: new TextDecoder().decode(concatBytes(chunks)), info };
  } finally {
    file.close();
  }
}
