/**
 * Whether a settings file is safe to put hub's secret in, by who could change or read it: the
 * file must be the user's own, and the folder it is in must not let other users replace it (a
 * folder group or others can write is refused unless it has the sticky bit, as /tmp has; a
 * group-writable folder of the user's own group, as a umask of 002 makes them, is accepted). A
 * folder owned by another user (root aside) is refused too. POSIX only: Windows has no such bits.
 */
import { dirname } from "node:path";
import { SetupError } from "./setup_error.ts";

/** Who runs hub: the owner hub's files must have, and the user's own group. */
export interface FileUser {
  uid: number;
  /** The user's own group (the group of the home folder); undefined: not known. */
  gid?: number;
}

/** A permission mode in words: "0644". */
export const octal = (mode: number) => `0${(mode & 0o777).toString(8).padStart(3, "0")}`;

/**
 * The user running hub: the owner of a file it creates (needs no --allow-sys; when no temp file
 * can be made, the owner of the home folder), and the group of the home folder. Undefined on
 * Windows, or when neither can be found.
 */
export async function currentUser(home: string): Promise<FileUser | undefined> {
  if (Deno.build.os === "windows") return undefined;
  const homeInfo = await Deno.stat(home).catch(() => undefined);
  const gid = homeInfo?.gid ?? undefined;
  const probe = await Deno.makeTempFile({ prefix: ".hub-owner-" }).catch(() => undefined);
  if (probe === undefined) return homeInfo?.uid != null ? { uid: homeInfo.uid, gid } : undefined;
  try {
    const uid = (await Deno.stat(probe)).uid;
    return uid === null ? undefined : { uid, gid };
  } finally {
    await Deno.remove(probe).catch(() => {});
  }
}

/** The nearest existing folder at or above `folder`, with its stat. */
async function nearestFolder(folder: string): Promise<{ path: string; info: Deno.FileInfo }> {
  try {
    return { path: folder, info: await Deno.stat(folder) };
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound) || dirname(folder) === folder) throw error;
    return nearestFolder(dirname(folder));
  }
}

/** Refuses `real` (shown as `path`) when another user owns it or can replace it. */
export async function checkOwnership(real: string, path: string, user: FileUser): Promise<void> {
  const file = await Deno.lstat(real).catch((error) => {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  });
  if (file && file.uid !== null && file.uid !== user.uid) {
    throw new SetupError(
      `${path} is owned by another user (uid ${file.uid}), who could read hub's secret in it; hub did not change it: pass --force to write it anyway`,
      { path },
    );
  }
  const { path: folder, info } = await nearestFolder(dirname(real));
  const mode = info.mode ?? 0;
  const sticky = (mode & 0o1000) !== 0;
  const ownGroup = user.gid !== undefined && info.gid === user.gid;
  const shared = !sticky && ((mode & 0o002) !== 0 || ((mode & 0o020) !== 0 && !ownGroup));
  const foreign = info.uid !== null && info.uid !== user.uid && info.uid !== 0;
  if (shared || foreign) {
    const why = foreign
      ? `owned by another user (uid ${info.uid})`
      : `other users can write (mode ${octal(mode)})`;
    throw new SetupError(
      `${path} is in ${folder}, a folder ${why}, so they could replace the file that holds hub's secret; hub did not change it: make the folder yours alone (chmod go-w) or pass --force`,
      { path },
    );
  }
}
