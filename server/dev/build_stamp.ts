/**
 * Cheap fingerprints of what dev mode watches: one `stat` per file (identity, size, modification
 * time), no reading. A plugin's stamp covers the two files a build writes; the poll compares
 * stamps to catch changes the native watcher missed.
 */
import { join } from "node:path";
import { ADAPTER_FILE, TOOLS_FILE } from "../../protocol/plugin_manifest.ts";

/** `ino:size:mtime` of `path`, or "-" when it does not exist. */
export async function fileStamp(path: string): Promise<string> {
  try {
    const info = await Deno.stat(path);
    return `${info.ino}:${info.size}:${info.mtime?.getTime()}`;
  } catch {
    return "-";
  }
}

/** The stamp of a plugin folder's build: its dist/tools.json and dist/adapter.iife.js. */
export async function buildStamp(dir: string): Promise<string> {
  const [tools, adapter] = await Promise.all([
    fileStamp(join(dir, TOOLS_FILE)),
    fileStamp(join(dir, ADAPTER_FILE)),
  ]);
  return `${tools}|${adapter}`;
}
