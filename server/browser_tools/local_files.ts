/**
 * The local files browser tools read and write (browser_upload_file, browser_save_pdf): only under
 * the allowed folders (the home and temp directories and `additionalAllowedDirectories`,
 * core/plugin_source/allowed_roots.ts `fileRoots`), symlinks resolved first, and never inside the
 * hub's own config folder (it holds the extension's secret), except the upload folder the hub
 * writes itself. The extension only ever receives paths checked here.
 */
import { basename, dirname, isAbsolute, join } from "node:path";
import { hubError } from "../../protocol/errors.ts";
import { isPlainFileName } from "../../protocol/browser_methods/files.ts";
import { quoteClip } from "../../protocol/clip.ts";
import { writeFileAtomic } from "../../core/files/atomic_write.ts";
import { isInside } from "../../core/plugin_source/allowed_roots.ts";
import type { LocalFiles } from "./browser_tool_interface.ts";

/** How long a file written for an upload stays (the page may read it when a form is sent). */
export const UPLOAD_KEEP_MS = 60 * 60 * 1000;

export interface LocalFilesOptions {
  /** The hub's config folder: refused, but for its `uploads/` folder. */
  configDir: string;
  /** The allowed folders now (the config may change), symlinks resolved. */
  roots(): string[];
  clock?: () => number;
}

export function createLocalFiles(options: LocalFilesOptions): LocalFiles {
  const clock = options.clock ?? Date.now;
  const configDir = realOrSame(options.configDir);
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
    if (roots.some((root) => isInside(real, root))) return undefined;
    return `${shown} is outside the folders browser tools may use (${roots.join(", ")}). Use a ` +
      'file under one of them, or add its folder to "additionalAllowedDirectories" in the hub\'s ' +
      "config.json.";
  };

  return {
    async readable(path, maxBytes) {
      const shown = quoteClip(path);
      if (!isAbsolute(path)) {
        throw notAllowed(`The path ${shown} is not absolute: give the full path.`);
      }
      const real = await Deno.realPath(path).catch(() => {
        throw notAllowed(`There is no file at ${shown}.`);
      });
      const why = refusal(real, shown);
      if (why) throw notAllowed(why);
      const info = await Deno.stat(real);
      if (!info.isFile) throw notAllowed(`${shown} is not a regular file.`);
      if (info.size > maxBytes) {
        throw hubError(
          "FILE_TOO_LARGE",
          `${shown} is ${info.size} bytes, over the limit of ${maxBytes} bytes.`,
        );
      }
      try {
        (await Deno.open(real, { read: true })).close();
      } catch {
        throw notAllowed(`${shown} cannot be read (check its permissions).`);
      }
      return { path: real, bytes: info.size };
    },

    async temporary(name, bytes) {
      if (!isPlainFileName(name)) {
        throw hubError("INVALID_ARGUMENTS", `${quoteClip(name)} is not a plain file name.`);
      }
      await Deno.mkdir(uploadsDir, { recursive: true, mode: 0o700 });
      await sweep(uploadsDir, clock() - UPLOAD_KEEP_MS);
      const dir = join(uploadsDir, crypto.randomUUID());
      await Deno.mkdir(dir, { mode: 0o700 });
      const path = join(dir, name);
      await Deno.writeFile(path, bytes, { mode: 0o600, createNew: true });
      return path;
    },

    async writable(path, extension) {
      const shown = quoteClip(path);
      if (!isAbsolute(path)) {
        throw notAllowed(`The path ${shown} is not absolute: give the full path.`);
      }
      const name = basename(path);
      if (!isPlainFileName(name) || !name.toLowerCase().endsWith(extension)) {
        throw notAllowed(`The path ${shown} must end with a file name ending in ${extension}.`);
      }
      const folder = await Deno.realPath(dirname(path)).catch(() => {
        throw notAllowed(`The folder of ${shown} does not exist: create it first.`);
      });
      const real = join(folder, name);
      const why = refusal(real, shown);
      if (why) throw notAllowed(why);
      const existing = await Deno.lstat(real).catch(() => undefined);
      if (existing && !existing.isFile) {
        throw notAllowed(`${shown} exists and is not a regular file.`);
      }
      return real;
    },

    async write(path, bytes) {
      await writeFileAtomic(path, bytes, { mode: 0o600 });
    },
  };
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
