/**
 * `folder.open`: shows a local plugin's folder in the desktop's file manager (the side panel's
 * "Open folder"). Only the folder of a loaded local plugin is opened, given exactly as the hub
 * synced it (`dir`); any other path is refused, so nothing that reaches the extension can make the
 * hub open arbitrary paths. The opener (`xdg-open` on Linux and the BSDs, `open` on macOS,
 * `explorer` on Windows) runs as a detached child with no input or output; the request waits for
 * it at most `timeoutMs`, and an opener still running then is left to finish on its own.
 */
import { isAbsolute, resolve } from "node:path";
import { clipForMessage } from "../../protocol/clip.ts";
import { withTimeout } from "../../protocol/with_timeout.ts";
import { HubError, hubError } from "../../protocol/errors.ts";

/**
 * The codes of a folder that could not be opened (a HubError; the message names the folder so the
 * person can open it). The extension gets them as a JSON-RPC server error (`toRpcError`).
 */
export const FOLDER_OPEN_CODES = ["NO_OPENER", "OPEN_FAILED"] as const;
export type FolderOpenCode = typeof FOLDER_OPEN_CODES[number];

/** Whether `error` is a folder that could not be opened. */
export function isFolderOpenFailure(error: unknown): error is HubError {
  return error instanceof HubError && (FOLDER_OPEN_CODES as readonly string[]).includes(error.code);
}

/** A started opener: its exit, and a way to stop waiting for it. */
export interface OpenerChild {
  status: Promise<{ code: number }>;
  unref(): void;
}

export type SpawnOpener = (command: string, args: string[]) => OpenerChild;

export interface FolderOpenDeps {
  /** The folders of the loaded local plugins. */
  localFolders(): string[];
  /** Default `Deno.build.os`. */
  os?: typeof Deno.build.os;
  /** The opener command; default the desktop's, from `os`. */
  opener?: string;
  spawn?: SpawnOpener;
  /** How long a request waits for the opener (default 10 s). */
  timeoutMs?: number;
}

const OPEN_TIMEOUT_MS = 10_000;
const MAX_PATH_SHOWN = 300;

/** The command that opens a folder on this desktop. */
export function desktopOpener(os: typeof Deno.build.os = Deno.build.os): string {
  if (os === "darwin") return "open";
  if (os === "windows") return "explorer";
  return "xdg-open";
}

function spawnDetached(command: string, args: string[]): OpenerChild {
  const child = new Deno.Command(command, {
    args,
    stdin: "null",
    stdout: "null",
    stderr: "null",
    detached: true,
  }).spawn();
  return { status: child.status, unref: () => child.unref() };
}

/** The loaded local plugin folder `path` names, or a refusal. */
function knownFolder(path: string, folders: string[]): string {
  const shown = clipForMessage(path, MAX_PATH_SHOWN);
  const refuse = (why: string) => hubError("INVALID_ARGUMENTS", why);
  if (!isAbsolute(path)) throw refuse(`Refusing to open "${shown}": not an absolute path.`);
  const wanted = resolve(path);
  const dir = folders.find((folder) => resolve(folder) === wanted);
  if (dir === undefined) {
    throw refuse(
      `Refusing to open "${shown}": the hub opens only the folder of a loaded local plugin ` +
        "(the `dir` it synced).",
    );
  }
  return dir;
}

function startOpener(spawn: SpawnOpener, opener: string, dir: string): OpenerChild {
  try {
    return spawn(opener, [dir]);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      throw hubError(
        "NO_OPENER",
        `no desktop opener (${opener}) found; the folder is ${dir}`,
      );
    }
    if (error instanceof Deno.errors.NotCapable || error instanceof Deno.errors.PermissionDenied) {
      throw hubError(
        "NO_OPENER",
        `hub may not run ${opener} (its --allow-run flag does not list it; reinstall hub with ` +
          `the current flags); the folder is ${dir}`,
      );
    }
    throw hubError(
      "OPEN_FAILED",
      `${opener} could not be started (${clipForMessage((error as Error).message)}); ` +
        `the folder is ${dir}`,
    );
  }
}

/** Opens the folder of a loaded local plugin; answers the folder that was opened. */
export function createFolderOpener(deps: FolderOpenDeps) {
  const os = deps.os ?? Deno.build.os;
  const opener = deps.opener ?? desktopOpener(os);
  const spawn = deps.spawn ?? spawnDetached;
  const timeoutMs = deps.timeoutMs ?? OPEN_TIMEOUT_MS;

  return async function openFolder(path: string): Promise<{ opened: string }> {
    const dir = knownFolder(path, deps.localFolders());
    const isDir = await Deno.stat(dir).then((s) => s.isDirectory, () => false);
    if (!isDir) throw hubError("OPEN_FAILED", `the folder ${dir} no longer exists`);
    const child = startOpener(spawn, opener, dir);
    const outcome = await withTimeout<{ code: number } | "timeout">(
      child.status,
      timeoutMs,
      "timeout",
    );
    if (outcome === "timeout") {
      child.unref(); // still showing the folder, or slow: it finishes on its own
      return { opened: dir };
    }
    // explorer answers 1 even when it opened the folder.
    if (outcome.code === 0 || os === "windows") return { opened: dir };
    throw hubError(
      "OPEN_FAILED",
      `${opener} could not open the folder (exit code ${outcome.code}${
        outcome.code === 3 ? ": no program to open folders is set up" : ""
      }); the folder is ${dir}`,
    );
  };
}
