/**
 * `<config>/extension/adapters/`: one file per loaded plugin, named `<plugin>-<hash>.js` after its
 * content, which the extension injects into matching tabs. A file is written only when its name
 * is new (same name, same content), and files no plugin uses any more are removed.
 */
import { join } from "node:path";
import { writeFileAtomic } from "../../core/files/atomic_write.ts";

export interface AdapterFile {
  fileName: string;
  code: Uint8Array;
}

/** Whether `path` is already this adapter: a regular file of its size (its name is its hash). */
async function inPlace(path: string, size: number): Promise<boolean> {
  try {
    const info = await Deno.lstat(path); // a link or a FIFO put there is replaced, never kept
    return info.isFile && info.size === size;
  } catch {
    return false;
  }
}

export async function syncAdapters(dir: string, adapters: AdapterFile[]): Promise<void> {
  await Deno.mkdir(dir, { recursive: true });
  const wanted = new Set(adapters.map((a) => a.fileName));
  for (const adapter of adapters) {
    const path = join(dir, adapter.fileName);
    if (await inPlace(path, adapter.code.length)) continue;
    // Adapter files are public code (not secrets); the browser must be able to read them.
    await writeFileAtomic(path, new TextDecoder().decode(adapter.code), { mode: 0o644 });
  }
  for await (const entry of Deno.readDir(dir)) {
    if (entry.isFile && entry.name.endsWith(".js") && !wanted.has(entry.name)) {
      await Deno.remove(join(dir, entry.name)).catch(() => {});
    }
  }
}
