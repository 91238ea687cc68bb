/** Where browser tools save files for the person (`save: true`): `<config dir>/screenshots/`. */
import { join } from "node:path";
import { writeFileAtomic } from "../../core/files/atomic_write.ts";

/** A plain file name: no folders, no leading dot. */
const FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,200}$/;

/** `saveFile` for ContentContext: writes into `dir` (created 0700), mode 0600, atomically. */
export function createFileSaver(dir: string) {
  return async (name: string, bytes: Uint8Array): Promise<string> => {
    if (!FILE_NAME.test(name) || name.includes("..")) {
      throw new Error(`"${name}" is not a plain file name to save in ${dir}.`);
    }
    await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
    const path = join(dir, name);
    await writeFileAtomic(path, bytes, { mode: 0o600 });
    return path;
  };
}
