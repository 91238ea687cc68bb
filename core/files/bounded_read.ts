/**
 * Reading a file whose contents someone else controls (a plugin package, config.json, auth.json, an
 * MCP client's config) without trusting its kind, size or speed. The path is looked at first
 * (`stat`, which follows links and never blocks, even on a named pipe): anything but a regular file
 * (a folder, a FIFO, a device such as /dev/zero, a socket, or a link to one) is refused before it
 * is opened, as is a file larger than the caller's bound. The opened handle is looked at again
 * (`fstat`): it must still be a regular file, and the same one. Then at most `maxBytes + 1` bytes
 * are read, so a file that grows meanwhile is refused too, and never more than the bound is held in
 * memory. A tail read (`readBoundedTail`, for logs) takes the last `maxBytes` of a regular file of
 * any size instead. Asynchronous reads also have a time bound (`timeoutMs`). The synchronous read (for the
 * hub's live config) cannot be interrupted; it relies on the look before the open, so a file
 * swapped for a FIFO between that look and the open (which needs write access to its folder) would
 * still block it.
 */
import { concatBytes } from "../../protocol/bytes.ts";
import { clip } from "../../protocol/clip.ts";
import { isUserError, UserError } from "../cli/user_error.ts";

/** How long an asynchronous bounded read may take, open to last byte, by default. */
export const DEFAULT_READ_TIMEOUT_MS = 5_000;

const CHUNK_BYTES = 64 * 1024;

export type UnusableKind = "not_a_file" | "too_large" | "too_slow";

/** The code of the user error for a file that exists but is not read. */
export const UNUSABLE_FILE = "UNUSABLE_FILE";

/** A file that exists but is not read: not a regular file, larger than the bound, or too slow. */
export interface UnusableFile {
  path: string;
  kind: UnusableKind;
  /** What is wrong, after the path ("is a named pipe (FIFO), …"). */
  detail: string;
}

/** The user error for a file that is not read: its message names the file and what is wrong. */
export function unusableFileError(path: string, kind: UnusableKind, detail: string): UserError {
  const details: UnusableFile = { path, kind, detail };
  return new UserError(`${path} ${detail}`, { code: UNUSABLE_FILE, details });
}

/** The file an `unusableFileError` is about; undefined for any other error. */
export function unusableFile(error: unknown): UnusableFile | undefined {
  return isUserError(error, UNUSABLE_FILE) ? error.details as UnusableFile : undefined;
}

/** The longest message `unusableFileMessage` makes. */
const MAX_MESSAGE_CHARS = 600;

/** A path as a POSIX shell reads it: as is when it holds only safe characters, else single-quoted. */
export function shellQuote(path: string): string {
  return /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replaceAll("'", `'\\''`)}'`;
}

/** The one advice for a file that must not be used where it is: "move it away (mv … ….old)". */
export function moveAwayAdvice(path: string): string {
  return `move it away (mv ${shellQuote(path)} ${shellQuote(`${path}.old`)})`;
}

/**
 * The one wording of a file that is not used, bounded: `<name> <what is wrong>; <fix>`. `name` is
 * the file as the reader knows it (its path, or its path inside a plugin); `fix` starts lowercase.
 */
export function unusableFileMessage(name: string, file: UnusableFile, fix?: string): string {
  return clip(`${name} ${file.detail}${fix ? `; ${fix}` : ""}`, MAX_MESSAGE_CHARS);
}

export interface ReadBound {
  /** The most bytes accepted; a larger file is refused without being read. */
  maxBytes: number;
  /** Asynchronous reads only: the most milliseconds the open and read may take. */
  timeoutMs?: number;
}

/** What a file is, in words, when it is not a regular file. */
export function fileKind(info: Deno.FileInfo): string {
  if (info.isDirectory) return "a folder";
  if (info.isFifo) return "a named pipe (FIFO)";
  if (info.isCharDevice) return "a character device (such as /dev/zero)";
  if (info.isBlockDevice) return "a block device";
  if (info.isSocket) return "a socket";
  return "not a regular file";
}

/** A size in words: "300 bytes", "64 KB", "5.5 MB". */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} bytes`;
}

export function tooLarge(path: string, maxBytes: number, size?: number): UserError {
  const is = size === undefined ? "grew past" : `is ${formatBytes(size)}, over`;
  return unusableFileError(
    path,
    "too_large",
    `${is} the limit of ${formatBytes(maxBytes)}; it was not read`,
  );
}

/** Throws an `unusableFileError` unless `info` is a regular file of at most `maxBytes`. */
export function checkRegularFile(path: string, info: Deno.FileInfo, maxBytes: number): void {
  if (!info.isFile) {
    throw unusableFileError(
      path,
      "not_a_file",
      `is ${fileKind(info)}, not a regular file; it was not opened`,
    );
  }
  if (info.size > maxBytes) throw tooLarge(path, maxBytes, info.size);
}

/** The handle's own look: still a regular file within the bound, and the file looked at before. */
function checkHandle(path: string, before: Deno.FileInfo, now: Deno.FileInfo, max: number): void {
  checkRegularFile(path, now, max);
  if (before.ino !== null && (now.ino !== before.ino || now.dev !== before.dev)) {
    throw unusableFileError(path, "not_a_file", "was replaced while being opened; try again");
  }
}

/** A bounded read's bytes, and the opened file's details (mode, size) from the same look. */
export interface BoundedFile {
  bytes: Uint8Array;
  info: Deno.FileInfo;
}

/**
 * The one chunk loop of every read here, asynchronous or not: buffers of at most CHUNK_BYTES, never
 * more than `limit` bytes in all (a whole read asks for the bound plus one byte, to notice a file
 * that grew past it).
 */
class Chunks {
  readonly #parts: Uint8Array[] = [];
  size = 0;
  constructor(readonly limit: number) {}

  /** The buffer for the next read, or undefined once `limit` bytes are in. */
  next(): Uint8Array | undefined {
    return this.size >= this.limit
      ? undefined
      : new Uint8Array(Math.min(CHUNK_BYTES, this.limit - this.size));
  }

  /** Keeps the `n` bytes read into `buffer`; false at the end of the file. */
  took(buffer: Uint8Array, n: number | null): boolean {
    if (n === null || n === 0) return false;
    this.#parts.push(buffer.subarray(0, n));
    this.size += n;
    return true;
  }

  bytes(): Uint8Array {
    return concatBytes(this.#parts);
  }
}

/** Reads `path` (at most `bound.maxBytes`), within `bound.timeoutMs`. NotFound is thrown as is. */
export async function readBounded(path: string, bound: ReadBound): Promise<Uint8Array> {
  return (await readBoundedFile(path, bound)).bytes;
}

/** `readBounded` with the file's details. */
export function readBoundedFile(path: string, bound: ReadBound): Promise<BoundedFile> {
  return withTimeBound(path, bound.timeoutMs, (state) => readChecked(path, bound.maxBytes, state));
}

/** The end of a file, `start` bytes in, to its end as it was looked at. */
export interface BoundedTail extends BoundedFile {
  start: number;
}

/**
 * The last `bound.maxBytes` of `path`, a regular file of any size (a log that may have grown past
 * its rotation size), with the same checks and time bound as `readBounded`.
 */
export function readBoundedTail(path: string, bound: ReadBound): Promise<BoundedTail> {
  return withTimeBound(path, bound.timeoutMs, (state) => readTail(path, bound.maxBytes, state));
}

/** Runs `read`, refusing it with "too_slow" after `timeoutMs` (`state.late` tells it to stop). */
async function withTimeBound<T>(
  path: string,
  timeoutMs = DEFAULT_READ_TIMEOUT_MS,
  read: (state: { late: boolean }) => Promise<T>,
): Promise<T> {
  const state = { late: false };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      state.late = true;
      reject(
        unusableFileError(path, "too_slow", `took over ${timeoutMs} ms to read; given up`),
      );
    }, timeoutMs);
  });
  try {
    return await Promise.race([read(state), expired]);
  } finally {
    clearTimeout(timer);
  }
}

/** Opens `path` after looking at it, and looks at the handle again (see `checkHandle`). */
async function openChecked(
  path: string,
  max: number,
  state: { late: boolean },
): Promise<{ file: Deno.FsFile; info: Deno.FileInfo }> {
  const before = await Deno.stat(path);
  checkRegularFile(path, before, max);
  const opening = Deno.open(path, { read: true });
  // Given up meanwhile: the file is closed whenever its open completes.
  opening.then((f) => state.late && f.close(), () => {});
  const file = await opening;
  try {
    const info = await file.stat();
    checkHandle(path, before, info, max);
    return { file, info };
  } catch (error) {
    file.close();
    throw error;
  }
}

async function readAll(file: Deno.FsFile, limit: number, state: { late: boolean }) {
  const chunks = new Chunks(limit);
  for (let b = chunks.next(); b && !state.late; b = chunks.next()) {
    if (!chunks.took(b, await file.read(b))) break;
  }
  return chunks;
}

async function readChecked(
  path: string,
  max: number,
  state: { late: boolean },
): Promise<BoundedFile> {
  const { file, info } = await openChecked(path, max, state);
  try {
    const chunks = await readAll(file, max + 1, state);
    if (chunks.size > max) throw tooLarge(path, max);
    return { bytes: chunks.bytes(), info };
  } finally {
    file.close();
  }
}

async function readTail(
  path: string,
  max: number,
  state: { late: boolean },
): Promise<BoundedTail> {
  const { file, info } = await openChecked(path, Number.MAX_SAFE_INTEGER, state);
  try {
    const start = Math.max(0, info.size - max);
    await file.seek(start, Deno.SeekMode.Start);
    const chunks = await readAll(file, Math.min(max, info.size), state);
    return { bytes: chunks.bytes(), info, start };
  } finally {
    file.close();
  }
}

/** `readBounded` as UTF-8 text. */
export async function readBoundedText(path: string, bound: ReadBound): Promise<string> {
  return new TextDecoder().decode(await readBounded(path, bound));
}

/** `readBoundedText`, or undefined when the file does not exist. */
export async function readBoundedTextIfExists(
  path: string,
  bound: ReadBound,
): Promise<string | undefined> {
  try {
    return await readBoundedText(path, bound);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
}

/**
 * The synchronous form, for a value read on the spot (the hub's live config.json and auth.json):
 * the same checks, no time bound (see the module note). NotFound is thrown as is.
 */
export function readBoundedTextSync(path: string, maxBytes: number): string {
  const before = Deno.statSync(path);
  checkRegularFile(path, before, maxBytes);
  const file = Deno.openSync(path, { read: true });
  try {
    checkHandle(path, before, file.statSync(), maxBytes);
    const chunks = new Chunks(maxBytes + 1);
    for (let b = chunks.next(); b; b = chunks.next()) if (!chunks.took(b, file.readSync(b))) break;
    if (chunks.size > maxBytes) throw tooLarge(path, maxBytes);
    return new TextDecoder().decode(chunks.bytes());
  } finally {
    file.close();
  }
}
