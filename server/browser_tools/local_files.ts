/**
 * The local files browser tools read and write (browser_upload_file, browser_save_pdf): only under
 * the allowed folders (the home and temp directories and `additionalAllowedDirectories`,
 * core/plugin_source/allowed_roots.ts `fileRoots`), symlinks resolved first; never inside the hub's
 * own config folder (it holds the extension's secret), except the upload folder the hub writes
 * itself; and, unless the person listed a folder inside them, never in the home folder's hidden
 * folders (~/.ssh, ~/.aws, ~/.config, which holds Chromium's profile on Linux) or a browser's
 * profile folder. A file to upload is opened once, checked on that open handle, and copied into
 * the hub's private upload folder: Chromium only ever reads that copy, so a file swapped after the
 * check is never the one sent (decision 066).
 */
import { basename, dirname, isAbsolute, join, relative, sep } from "node:path";
import { hubError } from "../../protocol/errors.ts";
import { isPlainFileName } from "../../protocol/browser_methods/files.ts";
import { quoteClip } from "../../protocol/clip.ts";
import { isInside } from "../../core/plugin_source/allowed_roots.ts";
import { homeDir } from "../../core/config/paths.ts";
import type { LocalFiles } from "./browser_tool_interface.ts";

/** How long a file written for an upload stays (the page may read it when a form is sent). */
export const UPLOAD_KEEP_MS = 60 * 60 * 1000;

/**
 * Browsers' profile folders (cookies, saved passwords) under the home folder on macOS, Windows and
 * Linux snaps, as path parts, compared without case. Linux profiles live in ~/.config, hidden.
 */
export const PROFILE_FOLDERS: readonly string[][] = [
  ...["Google", "Chromium", "BraveSoftware", "Microsoft Edge", "Firefox", "Vivaldi", "Arc"].map(
    (name) => ["Library", "Application Support", name],
  ),
  ["Library", "Keychains"],
  ["Library", "Cookies"],
  ...["Google", "Chromium", "BraveSoftware", "Microsoft", "Vivaldi", "Mozilla"].map(
    (name) => ["AppData", "Local", name],
  ),
  ["AppData", "Roaming", "Mozilla"],
  ["AppData", "Roaming", "Opera Software"],
  ["snap", "chromium"],
  ["snap", "firefox"],
];

/**
 * The guarded folder `real` (a resolved path) lies in, or undefined: its first hidden folder under
 * `home` (a part starting with "."), or a browser's profile folder, whichever is nearer the home.
 */
export function guardedFolder(
  real: string,
  home: string,
): { folder: string; kind: "hidden" | "profile" } | undefined {
  if (!isInside(real, home)) return undefined;
  const parts = relative(home, real).split(sep).filter((part) => part !== "");
  const hidden = parts.findIndex((part) => part.startsWith("."));
  const profile = PROFILE_FOLDERS.find((folder) =>
    folder.every((part, i) => parts[i]?.toLowerCase() === part.toLowerCase())
  );
  if (profile && (hidden < 0 || profile.length <= hidden)) {
    return { folder: join(home, ...parts.slice(0, profile.length)), kind: "profile" };
  }
  if (hidden >= 0) return { folder: join(home, ...parts.slice(0, hidden + 1)), kind: "hidden" };
  return undefined;
}

export interface LocalFilesOptions {
  /** The hub's config folder: refused, but for its `uploads/` folder. */
  configDir: string;
  /** The allowed folders now (the config may change), symlinks resolved. */
  roots(): string[];
  /**
   * The folders of `additionalAllowedDirectories` now, symlinks resolved: a file in a hidden or
   * profile folder is allowed only under one of them that lies inside that folder.
   */
  listed(): string[];
  /** The home folder (default: HOME). */
  home?: string;
  clock?: () => number;
  /** For tests: runs between a file's check and its open (where a swap would happen). */
  beforeOpen?: (real: string) => Promise<void>;
}

export function createLocalFiles(options: LocalFilesOptions): LocalFiles {
  const clock = options.clock ?? Date.now;
  const configDir = realOrSame(options.configDir);
  const home = realOrSame(options.home ?? homeDir());
  const uploadsDir = join(configDir, "uploads");
  // What an earlier run left behind goes once its time is up, even if no upload follows.
  void sweep(uploadsDir, clock() - UPLOAD_KEEP_MS);

  /** Why `real` (a resolved path) may not be used, or undefined when it may. */
  const refusal = (real: string, shown: string): string | undefined => {
    if (isInside(real, uploadsDir)) return undefined;
    if (isInside(real, configDir)) {
      return `${shown} is inside the hub's own config folder (${configDir}), which browser ` +
        "tools never read or write.";
    }
    const roots = options.roots();
    if (!roots.some((root) => isInside(real, root))) {
      return `${shown} is outside the folders browser tools may use (${roots.join(", ")}). Use a ` +
        'file under one of them, or add its folder to "additionalAllowedDirectories" in the ' +
        "hub's config.json.";
    }
    const guarded = guardedFolder(real, home);
    if (!guarded) return undefined;
    const { folder } = guarded;
    const listed = options.listed().some((dir) => isInside(real, dir) && isInside(dir, folder));
    if (listed) return undefined;
    const what = guarded.kind === "hidden"
      ? `${folder}, a hidden folder of the home folder (such folders hold keys, passwords and ` +
        "app data: ~/.ssh, ~/.aws, ~/.config with the browser's profile)"
      : `${folder}, a web browser's profile folder (cookies, saved passwords)`;
    return `${shown} is in ${what}, which browser tools do not use by default. If the person ` +
      `wants it used, they add that folder (${folder}) or a folder inside it holding the file ` +
      'to "additionalAllowedDirectories" in the hub\'s config.json.';
  };

  /** Throws FILE_NOT_ALLOWED with the `refusal` of `real`, if it has one. */
  const refuse = (real: string, shown: string): void => {
    const why = refusal(real, shown);
    if (why) throw notAllowed(why);
  };

  /** A new folder of its own (0700) under uploads/, old ones swept first; answers its path. */
  const uploadFolder = async (): Promise<string> => {
    await Deno.mkdir(uploadsDir, { recursive: true, mode: 0o700 });
    await sweep(uploadsDir, clock() - UPLOAD_KEEP_MS);
    const dir = join(uploadsDir, crypto.randomUUID());
    await Deno.mkdir(dir, { mode: 0o700 });
    return dir;
  };

  /** The checked real path of `path` (absolute, allowed); FILE_NOT_ALLOWED otherwise. */
  const allowedReal = async (path: string, shown: string): Promise<string> => {
    if (!isAbsolute(path)) {
      throw notAbsolute(shown);
    }
    const real = await Deno.realPath(path).catch(() => {
      throw notAllowed(`There is no file at ${shown}.`);
    });
    refuse(real, shown);
    return real;
  };

  return {
    async readable(path, maxBytes) {
      const shown = quoteClip(path);
      const real = await allowedReal(path, shown);
      const checked = await Deno.stat(real).catch(() => {
        throw notAllowed(`There is no file at ${shown}.`);
      });
      if (!checked.isFile) throw notAllowed(`${shown} is not a regular file.`);
      if (checked.size > maxBytes) throw tooLarge(shown, checked.size, maxBytes);
      await options.beforeOpen?.(real);
      let file: Deno.FsFile;
      try {
        file = await Deno.open(real, { read: true });
      } catch {
        throw notAllowed(`${shown} cannot be read (check its permissions).`);
      }
      try {
        // What was opened must be the file checked: a link swapped in since is refused.
        const opened = await file.stat();
        if (!opened.isFile || !sameFile(opened, checked)) {
          throw notAllowed(`${shown} changed while the hub was checking it: try again.`);
        }
        if ((opened.nlink ?? 1) > 1) {
          throw notAllowed(
            `${shown} has ${opened.nlink} hard links, so the hub cannot tell which folder it ` +
              "belongs to: copy it to a new file and pass that.",
          );
        }
        if (opened.size > maxBytes) throw tooLarge(shown, opened.size, maxBytes);
        const dir = await uploadFolder();
        const copy = join(dir, basename(real));
        try {
          const bytes = await copyBounded(file, copy, maxBytes, shown);
          return { path: copy, bytes };
        } catch (error) {
          await Deno.remove(dir, { recursive: true }).catch(() => {});
          throw error;
        }
      } finally {
        file.close();
      }
    },

    async temporary(name, bytes) {
      if (!isPlainFileName(name)) {
        throw hubError("INVALID_ARGUMENTS", `${quoteClip(name)} is not a plain file name.`);
      }
      const path = join(await uploadFolder(), name);
      await Deno.writeFile(path, bytes, { mode: 0o600, createNew: true });
      return path;
    },

    async discard(paths) {
      for (const path of paths) {
        const dir = dirname(path);
        if (dirname(dir) === uploadsDir) {
          await Deno.remove(dir, { recursive: true }).catch(() => {});
        }
      }
    },

    async writable(path, extension) {
      const shown = quoteClip(path);
      if (!isAbsolute(path)) {
        throw notAbsolute(shown);
      }
      const name = basename(path);
      if (!isPlainFileName(name) || !name.toLowerCase().endsWith(extension)) {
        throw notAllowed(`The path ${shown} must end with a file name ending in ${extension}.`);
      }
      const folder = await Deno.realPath(dirname(path)).catch(() => {
        throw notAllowed(`The folder of ${shown} does not exist: create it first.`);
      });
      const real = join(folder, name);
      refuse(real, shown);
      await refuseExisting(real, shown);
      return real;
    },

    async write(path, bytes) {
      // The print may take seconds: check the folder again right before writing, so a folder
      // replaced by a link meanwhile is not written through.
      const shown = quoteClip(path);
      const folder = dirname(path);
      const now = await Deno.realPath(folder).catch(() => undefined);
      if (now !== folder) {
        throw notAllowed(
          `The folder of ${shown} was moved, removed or replaced while the page was printed: ` +
            "nothing was written. Try again.",
        );
      }
      refuse(path, shown);
      await refuseExisting(path, shown);
      await createFile(path, bytes, shown);
    },
  };
}

/** Whether two stats are of the same file (where the platform gives device and inode numbers). */
function sameFile(a: Deno.FileInfo, b: Deno.FileInfo): boolean {
  if (a.ino === null || b.ino === null || a.dev === null || b.dev === null) return true;
  return a.dev === b.dev && a.ino === b.ino;
}

async function refuseExisting(path: string, shown: string): Promise<void> {
  const existing = await Deno.lstat(path).catch(() => undefined);
  if (existing && !existing.isFile) throw notAllowed(`${shown} exists and is not a regular file.`);
  if (existing) throw exists(shown);
}

function exists(shown: string) {
  return notAllowed(
    `A file already exists at ${shown}, and browser_save_pdf never replaces one: pick a new name.`,
  );
}

/**
 * Writes `bytes` as a new file at `path` (mode 0600), never replacing one: a temp file beside it,
 * then a hard link to the name (which fails if the name exists), so the file appears whole. Where
 * the file system has no hard links, it is written at the name with create-new semantics.
 */
async function createFile(path: string, bytes: Uint8Array, shown: string): Promise<void> {
  const temp = join(dirname(path), `.${basename(path)}.${crypto.randomUUID()}.tmp`);
  await Deno.writeFile(temp, bytes, { mode: 0o600, createNew: true });
  try {
    await Deno.link(temp, path);
  } catch (error) {
    if (error instanceof Deno.errors.AlreadyExists) throw exists(shown);
    await Deno.writeFile(path, bytes, { mode: 0o600, createNew: true }).catch((again) => {
      throw again instanceof Deno.errors.AlreadyExists ? exists(shown) : again;
    });
  } finally {
    await Deno.remove(temp).catch(() => {});
  }
}

/**
 * Copies the open `file` to a new file at `to` (mode 0600), at most `maxBytes` bytes: a file that
 * grew past the bound since its stat is FILE_TOO_LARGE. Answers the bytes copied.
 */
async function copyBounded(
  file: Deno.FsFile,
  to: string,
  maxBytes: number,
  shown: string,
): Promise<number> {
  const out = await Deno.open(to, { write: true, createNew: true, mode: 0o600 });
  try {
    const buffer = new Uint8Array(256 * 1024);
    let total = 0;
    for (;;) {
      const read = await file.read(buffer);
      if (read === null) return total;
      total += read;
      if (total > maxBytes) throw tooLarge(shown, total, maxBytes);
      let written = 0;
      while (written < read) written += await out.write(buffer.subarray(written, read));
    }
  } finally {
    out.close();
  }
}

function tooLarge(shown: string, bytes: number, maxBytes: number) {
  return hubError(
    "FILE_TOO_LARGE",
    `${shown} is ${bytes} bytes, over the limit of ${maxBytes} bytes.`,
  );
}

function notAbsolute(shown: string) {
  return notAllowed(`The path ${shown} is not absolute: give the full path.`);
}

function notAllowed(message: string) {
  return hubError("FILE_NOT_ALLOWED", message);
}

function realOrSame(path: string): string {
  try {
    return Deno.realPathSync(path);
  } catch {
    return path;
  }
}

/**
 * Removes the upload folders last changed before `before` (ms since the epoch); a missing folder
 * is nothing to do.
 */
async function sweep(dir: string, before: number): Promise<void> {
  try {
    for await (const entry of Deno.readDir(dir)) {
      const path = join(dir, entry.name);
      const info = await Deno.lstat(path).catch(() => undefined);
      if (info && (info.mtime?.getTime() ?? 0) < before) {
        await Deno.remove(path, { recursive: true }).catch(() => {});
      }
    }
  } catch {
    // A folder that cannot be read is left as it is: the new file is written anyway.
  }
}
