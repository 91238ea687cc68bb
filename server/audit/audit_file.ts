/**
 * `audit.log`: one JSON entry per line, appended in order, rotated to `audit.log.1` before a line
 * would take the file past its limit. Writes are queued and flushed in batches by one writer, so
 * concurrent calls never interleave or split a line, and no entry is lost at a rotation.
 */
import { AUDIT_FILE_MAX_BYTES, type AuditEntry } from "../../protocol/audit.ts";

export interface AuditFile {
  append(entry: AuditEntry): void;
  /** Resolves when every entry appended so far is on disk. */
  flush(): Promise<void>;
}

export interface AuditFileOptions {
  maxBytes?: number;
  onError?: (message: string) => void;
}

export function createAuditFile(path: string, options: AuditFileOptions = {}): AuditFile {
  const maxBytes = options.maxBytes ?? AUDIT_FILE_MAX_BYTES;
  const encoder = new TextEncoder();
  let queue: Uint8Array[] = [];
  let size: number | undefined;
  let writing: Promise<void> = Promise.resolve();

  async function currentSize(): Promise<number> {
    if (size === undefined) {
      size = await Deno.stat(path).then((s) => s.size, () => 0);
    }
    return size;
  }

  async function write(lines: Uint8Array[]) {
    let batch: Uint8Array[] = [];
    let batchBytes = 0;
    const flushBatch = async () => {
      if (batch.length === 0) return;
      const bytes = new Uint8Array(batchBytes);
      let offset = 0;
      for (const line of batch) {
        bytes.set(line, offset);
        offset += line.length;
      }
      await Deno.writeFile(path, bytes, { append: true, create: true, mode: 0o600 });
      size = (await currentSize()) + batchBytes;
      batch = [];
      batchBytes = 0;
    };
    for (const line of lines) {
      const used = (await currentSize()) + batchBytes;
      if (used > 0 && used + line.length > maxBytes) {
        await flushBatch();
        await Deno.rename(path, `${path}.1`).catch(() => {});
        size = 0;
      }
      batch.push(line);
      batchBytes += line.length;
    }
    await flushBatch();
  }

  function drain(): Promise<void> {
    writing = writing.then(async () => {
      const lines = queue;
      queue = [];
      if (lines.length === 0) return;
      try {
        await write(lines);
      } catch (error) {
        size = undefined;
        options.onError?.(`Cannot write ${path}: ${(error as Error).message}`);
      }
    });
    return writing;
  }

  return {
    append(entry) {
      queue.push(encoder.encode(JSON.stringify(entry) + "\n"));
      if (queue.length === 1) queueMicrotask(() => void drain());
    },
    flush: () => drain(),
  };
}
