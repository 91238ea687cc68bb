/** Writes a file so that readers only ever see the old or the new content, never half of it. */
import { dirname, join } from "node:path";

export interface AtomicWriteOptions {
  /** File mode of the new file; default 0o600 (owner read/write only). */
  mode?: number;
  /** The rename step; injectable so tests can simulate a crash before it. */
  rename?: (from: string, to: string) => Promise<void>;
}

/**
 * Writes `data` to a temp file beside `path`, flushes it to disk, then renames it over `path`.
 * If anything fails before the rename, the old file is untouched and the temp file is removed.
 */
export async function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const mode = options.mode ?? 0o600;
  const rename = options.rename ?? Deno.rename;
  const random = crypto.getRandomValues(new Uint32Array(1))[0].toString(36);
  const temp = join(dirname(path), `.${basename(path)}.${Deno.pid}.${random}.tmp`);
  try {
    const file = await Deno.open(temp, { write: true, createNew: true, mode });
    try {
      await writeAll(file, typeof data === "string" ? new TextEncoder().encode(data) : data);
      await file.sync();
    } finally {
      file.close();
    }
    if (Deno.build.os !== "windows") await Deno.chmod(temp, mode);
    await rename(temp, path);
  } catch (error) {
    await Deno.remove(temp).catch(() => {});
    throw error;
  }
}

function basename(path: string): string {
  return path.slice(dirname(path).length + 1);
}

async function writeAll(file: Deno.FsFile, bytes: Uint8Array): Promise<void> {
  let offset = 0;
  while (offset < bytes.length) offset += await file.write(bytes.subarray(offset));
}
