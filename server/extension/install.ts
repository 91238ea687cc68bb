/**
 * Installs the built extension (extension/dist/) into `<config>/extension/`, which the user loads
 * unpacked in Chromium, and writes `server.json` so the extension knows the port. Files are
 * rewritten only when their content differs, so a new hub version updates the extension it
 * installed and an unchanged one touches nothing. `auth.json` and `adapters/` belong to
 * setup and the plugin host, and are left alone.
 */
import { join } from "node:path";
import { writeFileAtomic } from "../../core/files/atomic_write.ts";
import { EXTENSION_FILES } from "../../protocol/extension_files.ts";
import { readBounded, readBoundedTextIfExists } from "../../core/files/bounded_read.ts";

export { EXTENSION_FILES } from "../../protocol/extension_files.ts";
export const SERVER_FILE = "server.json";
/** The most of an installed manifest.json read (the real one is a few kilobytes). */
const MAX_MANIFEST_BYTES = 1024 * 1024;
// import.meta.dirname rather than node:url's fileURLToPath, which would load Node's layer at start.
const DIST = join(import.meta.dirname!, "../../extension/dist");

export interface InstallResult {
  action: "installed" | "updated" | "unchanged";
  version: string;
  /** The version that was there before an update. */
  previousVersion?: string;
}

function versionOf(manifest: string | undefined): string | undefined {
  try {
    const parsed = manifest === undefined ? undefined : JSON.parse(manifest);
    return parsed?.version_name ?? parsed?.version;
  } catch {
    return undefined;
  }
}

/** Writes `data` unless the file already holds it; returns whether it wrote. */
async function writeIfChanged(path: string, data: Uint8Array): Promise<boolean> {
  // Bounded: what is there (a FIFO, a link to /dev/zero) is never trusted, only replaced.
  const old = await readBounded(path, { maxBytes: data.length }).catch(() => undefined);
  if (old?.length === data.length && old.every((b, i) => b === data[i])) return false;
  // Extension files are public code, not secrets; Chromium must be able to read them.
  await writeFileAtomic(path, data, { mode: 0o644 });
  return true;
}

async function readSource(source: string, name: string): Promise<Uint8Array> {
  let bytes: Uint8Array;
  try {
    bytes = await Deno.readFile(join(source, name));
  } catch (error) {
    throw new Error(
      `Cannot install the browser extension: ${join(source, name)} is unreadable ` +
        `(${(error as Error).message}). Run "deno task build:extension" in the hub sources.`,
    );
  }
  if (new TextDecoder().decode(bytes).trim() === "") {
    throw new Error(
      `Cannot install the browser extension: ${join(source, name)} is empty. ` +
        'Run "deno task build:extension" in the hub sources.',
    );
  }
  return bytes;
}

export async function installExtension(
  dir: string,
  port: number,
  source: string = DIST,
): Promise<InstallResult> {
  await Deno.mkdir(dir, { recursive: true });
  const before = await readBoundedTextIfExists(join(dir, "manifest.json"), {
    maxBytes: MAX_MANIFEST_BYTES,
  });
  // Everything is read before anything is written: a broken source never leaves half an update.
  const files = await Promise.all(EXTENSION_FILES.map((name) => readSource(source, name)));
  let changed = false;
  for (const [i, name] of EXTENSION_FILES.entries()) {
    if (await writeIfChanged(join(dir, name), files[i])) changed = true;
  }
  const server = JSON.stringify({ port }, null, 2) + "\n";
  await writeIfChanged(join(dir, SERVER_FILE), new TextEncoder().encode(server));
  const version = versionOf(
    await readBoundedTextIfExists(join(dir, "manifest.json"), {
      maxBytes: MAX_MANIFEST_BYTES,
    }),
  ) ?? "unknown";
  if (before === undefined) return { action: "installed", version };
  if (!changed) return { action: "unchanged", version };
  return { action: "updated", version, previousVersion: versionOf(before) };
}
