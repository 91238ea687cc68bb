/**
 * Reading and writing an MCP client's settings file for `hub setup`, safely: reads are bounded
 * (5 MiB, regular files only, valid UTF-8); a symbolic link is followed only while it stays inside
 * the folder the path is in (the home folder, or the project folder for `--project`), unless the
 * user said `--follow-symlinks`; writes are atomic, keep the file's mode (new files and folders are
 * the user's alone), refuse a read-only file, refuse a file that changed since it was read, and
 * keep a copy of the file as it was before hub's first change (`<file>.hub-backup`, never
 * overwritten). Writing through a link replaces the file it leads to, so the link stays.
 */
import { dirname, isAbsolute, relative, resolve, sep } from "node:path";
import { readBoundedFile } from "../files/bounded_read.ts";
import { writeFileAtomic } from "../files/atomic_write.ts";
import { UserError } from "../cli/user_error.ts";
import { SetupError } from "./setup_error.ts";

export { SetupError } from "./setup_error.ts";
export type { EditOutcome } from "./setup_error.ts";

/** The largest settings file read or written (`~/.claude.json` holds every project's history). */
export const MAX_CLIENT_FILE_BYTES = 5 * 1024 * 1024;

/** The suffix of the copy kept of a file before hub's first change to it. */
export const BACKUP_SUFFIX = ".hub-backup";

export interface ClientFileIO {
  /** The file's text and mode; undefined when it does not exist. */
  read(path: string): Promise<{ text: string; mode?: number } | undefined>;
  /**
   * Writes `text` atomically (mode: the file's own; `mode` or 0600 for a new file). With
   * `expected`, refuses when the file no longer holds that text ("" = did not exist). Returns the
   * backup's path when this write made one.
   */
  write(
    path: string,
    text: string,
    mode?: number,
    expected?: string,
  ): Promise<{ backup?: string }>;
  /** A warning when the file can be read by other users (it holds the secret). */
  permissionsWarning(path: string): Promise<string | undefined>;
}

export interface ClientFileOptions {
  /** The user's home folder: a link from inside it must stay inside it. */
  home: string;
  /** Other folders a path may be in (the project folder), with the same rule. */
  roots?: string[];
  /** Follow links wherever they lead. */
  followSymlinks?: boolean;
  /** The largest file read or written (default MAX_CLIENT_FILE_BYTES). */
  maxBytes?: number;
  os?: typeof Deno.build.os;
}

const inside = (folder: string, path: string) => {
  const rel = relative(folder, path);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
};

/** The real path of `path`, or of its nearest existing folder with the rest appended. */
async function realTarget(path: string): Promise<string> {
  try {
    return await Deno.realPath(path);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
    const parent = dirname(path);
    if (parent === path) return path;
    return resolve(await realTarget(parent), relative(parent, path));
  }
}

/** A permission mode in words: "0644". */
const octal = (mode: number) => `0${(mode & 0o777).toString(8).padStart(3, "0")}`;

export function clientFileIO(options: ClientFileOptions): ClientFileIO {
  return new ClientFiles(options);
}

class ClientFiles implements ClientFileIO {
  readonly #options: ClientFileOptions;
  readonly #maxBytes: number;
  readonly #os: typeof Deno.build.os;
  readonly #roots: string[];

  constructor(options: ClientFileOptions) {
    this.#options = options;
    this.#maxBytes = options.maxBytes ?? MAX_CLIENT_FILE_BYTES;
    this.#os = options.os ?? Deno.build.os;
    this.#roots = [options.home, ...(options.roots ?? [])].map((r) => resolve(r));
  }

  read(path: string) {
    return refusingSystemErrors(
      path,
      "read",
      async () => this.#readAt(await this.#target(path), path),
    );
  }

  write(path: string, text: string, mode?: number, expected?: string) {
    return refusingSystemErrors(path, "write", () => this.#writeAt(path, text, mode, expected));
  }

  async permissionsWarning(path: string) {
    if (this.#os === "windows") return undefined;
    const info = await Deno.stat(path).catch(() => undefined);
    if (!info?.mode || (info.mode & 0o077) === 0) return undefined;
    const who = (info.mode & 0o007) ? "every user" : "your group";
    const mode = octal(info.mode);
    return `${path} can be read by ${who} (mode ${mode}) and holds hub's secret: chmod 600 it`;
  }

  /**
   * Where writing `path` really lands. A link may lead anywhere inside the folder the path is in
   * (the home folder, a project folder; else the file's own folder) or inside the home folder;
   * elsewhere only with `followSymlinks`.
   */
  async #target(path: string): Promise<string> {
    const absolute = resolve(path);
    const real = await realTarget(absolute);
    if (this.#options.followSymlinks || real === absolute) return real;
    const root = this.#roots.filter((r) => inside(r, absolute))
      .sort((a, b) => b.length - a.length)[0] ?? dirname(absolute);
    const realRoot = await realTarget(root);
    if (inside(realRoot, real) || inside(await realTarget(this.#roots[0]), real)) return real;
    throw new SetupError(
      `${path} leads (through a symbolic link) to ${real}, outside ${root}; hub did not follow it: pass --follow-symlinks to write there`,
      { path },
    );
  }

  async #readAt(real: string, path: string) {
    try {
      const { bytes, info } = await readBoundedFile(real, { maxBytes: this.#maxBytes });
      const text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
      return { text, mode: info.mode === null ? undefined : info.mode & 0o7777 };
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return undefined;
      if (error instanceof TypeError) {
        throw new SetupError(`${path} is not UTF-8 text; hub did not change it`, { path });
      }
      throw error;
    }
  }

  async #writeAt(path: string, text: string, mode?: number, expected?: string) {
    const real = await this.#target(path);
    if (new TextEncoder().encode(text).length > this.#maxBytes) {
      throw new SetupError(
        `the new ${path} would be over ${this.#maxBytes} bytes; hub did not write it`,
      );
    }
    const current = await this.#readAt(real, path);
    if (expected !== undefined && (current?.text ?? "") !== expected) {
      throw new SetupError(
        `${path} changed while hub was editing it; hub did not change it: run hub setup again`,
        { path },
      );
    }
    if (current?.mode !== undefined && this.#os !== "windows" && (current.mode & 0o200) === 0) {
      const was = octal(current.mode);
      throw new SetupError(
        `${path} is read-only (mode ${was}); hub did not change it: make it writable (chmod u+w) or edit it by hand`,
        { path },
      );
    }
    await Deno.mkdir(dirname(real), { recursive: true, mode: 0o700 });
    const backup = current ? await writeBackup(real, current.text, current.mode) : undefined;
    await writeFileAtomic(real, text, { mode: (current?.mode ?? mode ?? 0o600) & 0o7777 });
    return backup ? { backup } : {};
  }
}

/** Runs `io`, turning a system error (permission denied, not a folder) into a SetupError. */
async function refusingSystemErrors<T>(path: string, verb: string, io: () => Promise<T>) {
  try {
    return await io();
  } catch (error) {
    if (error instanceof UserError || !(error instanceof Error) || !("code" in error)) throw error;
    throw new SetupError(`hub could not ${verb} ${path}: ${error.message}`, { path });
  }
}

/** Keeps `text` as `<file>.hub-backup` unless a backup is there already; its path when written. */
async function writeBackup(real: string, text: string, mode?: number): Promise<string | undefined> {
  const backup = real + BACKUP_SUFFIX;
  try {
    const file = await Deno.open(backup, {
      write: true,
      createNew: true,
      mode: (mode ?? 0o600) & 0o600,
    });
    try {
      const bytes = new TextEncoder().encode(text);
      let offset = 0;
      while (offset < bytes.length) offset += await file.write(bytes.subarray(offset));
      await file.sync();
    } finally {
      file.close();
    }
    return backup;
  } catch (error) {
    if (error instanceof Deno.errors.AlreadyExists) return undefined;
    throw error;
  }
}
