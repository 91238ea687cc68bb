/**
 * The anonymous installation id: a random UUID (crypto.randomUUID), stored alone in
 * `<config dir>/telemetry_id` (mode 0600) so that `hub config reset` keeps it. Nothing about the
 * machine or the user goes into it. A missing file is created on first use; a file that does not
 * hold exactly one UUID (broken, or written by something else) is replaced with a fresh one.
 */
import { join } from "node:path";
import { writeFileAtomic } from "../files/atomic_write.ts";
import { withFileLock } from "../files/file_lock.ts";
import { readBoundedTextIfExists } from "../files/bounded_read.ts";

export const TELEMETRY_ID_FILE = "telemetry_id";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

export function telemetryIdPath(configDir: string): string {
  return join(configDir, TELEMETRY_ID_FILE);
}

/** The id in the file; undefined when the file is missing or does not hold a UUID. */
export async function readInstallationId(configDir: string): Promise<string | undefined> {
  // Not a regular file (a FIFO, /dev/zero) or too large: no usable id, a new one replaces it.
  const text = await readBoundedTextIfExists(telemetryIdPath(configDir), { maxBytes: 4096 }).catch(
    () => undefined,
  );
  const id = text?.trim().toLowerCase();
  return id !== undefined && UUID.test(id) ? id : undefined;
}

/**
 * The stored id, or a new one written crash-safe (then `onCreated` is told). Two processes that
 * start at once agree on one id: the check and the write happen under a lock file beside it.
 */
export async function ensureInstallationId(
  configDir: string,
  onCreated?: () => void,
): Promise<string> {
  const existing = await readInstallationId(configDir);
  if (existing) return existing;
  await Deno.mkdir(configDir, { recursive: true, mode: 0o700 });
  const path = telemetryIdPath(configDir);
  return await withFileLock(`${path}.lock`, async () => {
    const again = await readInstallationId(configDir);
    if (again) return again;
    const id = crypto.randomUUID();
    await writeFileAtomic(path, id + "\n", { mode: 0o600 });
    onCreated?.();
    return id;
  });
}
