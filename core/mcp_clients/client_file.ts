/**
 * Reading and writing an MCP client's settings file for `hub setup`, safely: reads are bounded
 * (5 MiB, regular files only, valid UTF-8); a symbolic link is followed only while it stays inside
 * the folder the path is in (the home folder, or the project folder for `--project`), unless the
 * user said `--follow-symlinks` (a link in a project folder must stay in that project folder);
 * writes are atomic, make a file that holds the secret the user's alone (its mode & 0700; new files
 * 0600 and folders 0700), refuse a file another user owns or a folder others can write (unless
 * `force`), refuse a read-only file, refuse a file that changed since it was read, and keep a copy
 * of the file as it was before hub's first change (`<file>.hub-backup`, never overwritten; one
 * that is not hub's is reported). Writing through a link replaces the file it leads to.
 */
import { basename, dirname, isAbsolute, relative, resolve, sep } from "node:path";
import { readBoundedFile } from "../files/bounded_read.ts";
import { writeFileAtomic } from "../files/atomic_write.ts";
import { UserError } from "../cli/user_error.ts";
import { SetupError } from "./setup_error.ts";
import { checkOwnership, currentUser, type FileUser, octal } from "./ownership.ts";

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
   * Writes `text` atomically (mode: the file's own; `mode` or 0600 for a new file; with `private`,
   * the default, group and other bits dropped). With `expected`, refuses when the file no longer
   * holds that text ("" = did not exist). Returns the backup's path when this write made one, and
   * warnings to show (no path in them): "made private: was 0644", a backup not made.
   */
  write(
    path: string,
    text: string,
    mode?: number,
    expected?: string,
    options?: WriteOptions,
  ): Promise<WriteResult>;
  /** A warning when the file can be read by other users (it holds the secret). */
  permissionsWarning(path: string): Promise<string | undefined>;
}

export interface WriteOptions {
  /** The file holds hub's secret: write it for the user alone (default true). */
  private?: boolean;
}

export interface WriteResult {
  backup?: string;
  warnings?: string[];
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
  /** Write a file another user owns, or in a folder others can write. */
  force?: boolean;
  /** Who runs hub (default: found out; tests pass another). */
  user?: FileUser;
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

  write(path: string, text: string, mode?: number, expected?: string, options?: WriteOptions) {
    return refusingSystemErrors(
      path,
      "write",
      () => this.#writeAt(path, text, { mode, expected, private: options?.private ?? true }),
    );
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
   * (a project folder; the home folder; else the file's own folder), and from outside a project
   * also anywhere inside the home folder; elsewhere only with `followSymlinks`. The filesystem
   * root never counts as such a folder.
   */
  async #target(path: string): Promise<string> {
    const absolute = resolve(path);
    const real = await realTarget(absolute);
    if (this.#options.followSymlinks || real === absolute) return real;
    const home = this.#roots[0];
    const root = this.#roots.filter((r) => dirname(r) !== r && inside(r, absolute))
      .sort((a, b) => b.length - a.length)[0];
    const project = root !== undefined && root !== home;
    const realRoot = await realTarget(root ?? dirname(absolute));
    if (inside(realRoot, real)) return real;
    if (!project && dirname(home) !== home && inside(await realTarget(home), real)) return real;
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

  async #writeAt(path: string, text: string, how: WriteHow) {
    const { mode, expected } = how;
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
    const user = await this.#user();
    if (user && !this.#options.force) await checkOwnership(real, path, user);
    await Deno.mkdir(dirname(real), { recursive: true, mode: 0o700 });
    const warnings: string[] = [];
    const backup = current ? await writeBackup(real, current, user, warnings) : undefined;
    const old = (current?.mode ?? mode ?? 0o600) & 0o777;
    const newMode = how.private ? old & 0o700 : old;
    if (current?.mode !== undefined && newMode !== old && this.#os !== "windows") {
      warnings.push(`made private: was ${octal(old)}`);
    }
    await writeFileAtomic(real, text, { mode: newMode });
    return { ...(backup ? { backup } : {}), ...(warnings.length ? { warnings } : {}) };
  }

  async #user(): Promise<FileUser | undefined> {
    if (this.#os === "windows") return undefined;
    return this.#options.user ?? await currentUser(this.#options.home);
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

interface WriteHow {
  mode?: number;
  expected?: string;
  private: boolean;
}

/**
 * Keeps the file as `<file>.hub-backup` unless a backup is there already; its path when written.
 * One that is there but is not a private regular file of the user is reported in `warnings`.
 */
async function writeBackup(
  real: string,
  current: { text: string; mode?: number },
  user: FileUser | undefined,
  warnings: string[],
): Promise<string | undefined> {
  const { text, mode } = current;
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
    if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
    const info = await Deno.lstat(backup).catch(() => undefined);
    const hubs = info?.isFile && (info.mode === null || (info.mode & 0o077) === 0) &&
      (user === undefined || info.uid === user.uid);
    if (!hubs) {
      warnings.push(`no backup made: ${basename(backup)} exists and is not hub's`);
    }
    return undefined;
  }
}
