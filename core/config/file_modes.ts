/**
 * Unsafe permissions on the config dir and its files, checked at start (POSIX only: Windows has no
 * mode bits, its ACLs are left to the user profile). What is refused and what is only warned about:
 *
 * - config dir or `extension/` writable by group or others: refused. Another user could replace
 *   `config.json` (set every tool to `auto`), `auth.json`, or the extension code the browser runs.
 * - `auth.json` readable or writable by group or others: refused. The secret may already be
 *   known to someone else, so the fix also rotates it.
 * - `config.json` writable by group or others: refused (as dangerous as a writable dir).
 * - `config.json` readable by group or others: a warning. It holds settings, not the secret.
 *
 * - `config.json` or `auth.json` that is not a regular file (a FIFO, a link to /dev/zero): refused.
 *
 * Every message gives the exact `chmod` (or `mv`) that fixes it.
 */
import type { HubPaths } from "./paths.ts";
import { UserError } from "../cli/user_error.ts";
import {
  fileKind,
  moveAwayAdvice,
  shellQuote as quote,
  unusableFileMessage,
} from "../files/bounded_read.ts";

const GROUP_OTHER_WRITE = 0o022;
const GROUP_OTHER_READ = 0o044;

/** The code of the error for a config dir or file whose mode lets other users in. */
export const UNSAFE_MODE = "UNSAFE_MODE";

/** Throws an UNSAFE_MODE user error for the refused cases; calls `onWarning` for the others. */
export async function checkFileModes(
  paths: HubPaths,
  onWarning: (message: string) => void = () => {},
): Promise<void> {
  if (Deno.build.os === "windows") return;
  const problems: string[] = [];
  for (const dir of [paths.dir, paths.extensionDir]) {
    const mode = await modeOf(dir);
    if (mode !== undefined && mode & GROUP_OTHER_WRITE) {
      problems.push(
        `${dir} is writable by other users (mode ${octal(mode)}): they could change hub's ` +
          `settings or its secret. Fix: chmod 700 ${quote(dir)}`,
      );
    }
  }
  let oddFile = false;
  for (const file of [paths.config, paths.auth]) {
    const info = await statOf(file);
    if (info && !info.isFile) {
      oddFile = true;
      problems.push(unusableFileMessage(
        file,
        { path: file, kind: "not_a_file", detail: `is ${fileKind(info)}, not a regular file` },
        `it is never read. Fix: ${moveAwayAdvice(file)} and start hub again (it writes a new one)`,
      ));
    }
  }
  if (oddFile) throw unsafe(problems); // a FIFO or a device has no mode worth checking
  const auth = await modeOf(paths.auth);
  if (auth !== undefined && auth & (GROUP_OTHER_READ | GROUP_OTHER_WRITE)) {
    problems.push(
      `${paths.auth} is readable or writable by other users (mode ${octal(auth)}): the secret ` +
        `in it may be known to them. Fix: chmod 600 ${quote(paths.auth)} and then ` +
        `hub config rotate-secret --confirm`,
    );
  }
  const config = await modeOf(paths.config);
  if (config !== undefined && config & GROUP_OTHER_WRITE) {
    problems.push(
      `${paths.config} is writable by other users (mode ${octal(config)}). ` +
        `Fix: chmod 600 ${quote(paths.config)}`,
    );
  } else if (config !== undefined && config & GROUP_OTHER_READ) {
    onWarning(
      `${paths.config} is readable by other users (mode ${octal(config)}). ` +
        `Fix: chmod 600 ${quote(paths.config)}`,
    );
  }
  if (problems.length > 0) throw unsafe(problems);
}

/** A config dir or file whose mode lets other users in: hub refuses to start with it. */
const unsafe = (problems: string[]) =>
  new UserError(`hub will not start with unsafe permissions:\n- ${problems.join("\n- ")}`, {
    code: UNSAFE_MODE,
  });

async function statOf(path: string): Promise<Deno.FileInfo | undefined> {
  try {
    return await Deno.stat(path); // follows links: a link to /dev/zero is a device
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
}

async function modeOf(path: string): Promise<number | undefined> {
  const mode = (await statOf(path))?.mode;
  return mode === null || mode === undefined ? undefined : mode & 0o7777;
}

function octal(mode: number): string {
  return `0${(mode & 0o777).toString(8).padStart(3, "0")}`;
}
