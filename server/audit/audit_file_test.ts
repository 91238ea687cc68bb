import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../../tests/helpers/assert.ts";
import type { AuditEntry } from "../../protocol/audit.ts";
import { createAuditFile } from "./audit_file.ts";

/** Runs `fn` with a fresh temp dir and its `audit.log` path; removes the dir afterwards. */
async function withDir(fn: (dir: string, path: string) => Promise<void> | void) {
  const dir = await Deno.makeTempDir({ prefix: "hub_audit_file_" });
  try {
    await fn(dir, join(dir, "audit.log"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** Entry `i`; odd entries fail and carry an error, and tool names vary so lines differ in size. */
function entry(i: number): AuditEntry {
  const e: AuditEntry = {
    timestamp: new Date(Date.UTC(2025, 0, 1, 0, 0, i % 60, i % 1000)).toISOString(),
    tool: `plugin${i % 7}__tool_${"x".repeat(i % 13)}`,
    plugin: `plugin${i % 7}`,
    success: i % 2 === 0,
    durationMs: i,
  };
  if (!e.success) {
    e.error = { code: "TIMEOUT", message: `call ${i} timed out`, category: "timeout" };
  }
  return e;
}

async function readText(path: string): Promise<string> {
  try {
    return await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return "";
    throw error;
  }
}

/** The lines of an NDJSON file, checking it ends with a newline and every line is JSON. */
async function readEntries(path: string): Promise<AuditEntry[]> {
  const text = await readText(path);
  if (text === "") return [];
  assert(text.endsWith("\n"), `${path} ends with a whole line`);
  return text.slice(0, -1).split("\n").map((line) => {
    assert(line.length > 0, `${path} has no empty line`);
    return JSON.parse(line) as AuditEntry;
  });
}

const lineBytes = (e: AuditEntry) => new TextEncoder().encode(JSON.stringify(e) + "\n").length;

Deno.test("entries are appended as NDJSON lines, in order", async () => {
  await withDir(async (_dir, path) => {
    const file = createAuditFile(path);
    const entries = [entry(0), entry(1), entry(2)];
    for (const e of entries) file.append(e);
    file.close();
    const text = await Deno.readTextFile(path);
    assertEquals(text, entries.map((e) => JSON.stringify(e) + "\n").join(""));
    assertEquals(await readEntries(path), entries);

    file.append(entry(3));
    file.close();
    assertEquals(await readEntries(path), [...entries, entry(3)]);
  });
});

Deno.test("an entry is in the file when append() returns, before any await (an answer may follow)", async () => {
  await withDir((_dir, path) => {
    const file = createAuditFile(path);
    try {
      file.append(entry(0));
      assertEquals(Deno.readTextFileSync(path), JSON.stringify(entry(0)) + "\n");
      file.append(entry(1));
      assertEquals(Deno.readTextFileSync(path).split("\n").length, 3, "two whole lines");
    } finally {
      file.close();
    }
  });
});

Deno.test("500 concurrent appends with rotation: whole lines, in order, files within maxBytes", async () => {
  await withDir(async (dir, path) => {
    const maxBytes = 2000;
    const errors: string[] = [];
    const file = createAuditFile(path, { maxBytes, onError: (m) => errors.push(m) });
    const entries = Array.from({ length: 500 }, (_, i) => entry(i));
    for (const e of entries) file.append(e); // fired without awaiting
    file.close();
    assertEquals(errors, []);

    const current = await readEntries(path);
    const previous = await readEntries(`${path}.1`);
    assert(current.length > 0 && previous.length > 0, "both files hold entries");
    for (const p of [path, `${path}.1`]) {
      const size = (await Deno.stat(p)).size;
      assert(size <= maxBytes, `${p} is ${size} bytes, over ${maxBytes}`);
    }

    // Together they are the newest entries, contiguous, in order, ending with the last one.
    const kept = [...previous, ...current];
    assertEquals(kept, entries.slice(entries.length - kept.length));
    // audit.log.1 was rotated only when the next line did not fit any more.
    const previousBytes = (await Deno.stat(`${path}.1`)).size;
    assert(previousBytes + lineBytes(current[0]) > maxBytes, "audit.log.1 was full");

    // Only audit.log and audit.log.1 exist.
    const names = [];
    for await (const e of Deno.readDir(dir)) names.push(e.name);
    assertEquals(names.sort(), ["audit.log", "audit.log.1"]);
  });
});

Deno.test("appends that arrive while writes are running keep the same guarantees", async () => {
  await withDir(async (_dir, path) => {
    const maxBytes = 2000;
    const file = createAuditFile(path, { maxBytes });
    const entries = Array.from({ length: 500 }, (_, i) => entry(i));
    // Appends spread over several timer turns, so many drains and rotations interleave.
    await Promise.all(
      entries.map((e, i) =>
        new Promise<void>((resolve) =>
          setTimeout(() => {
            file.append(e);
            resolve();
          }, Math.floor(i / 50))
        )
      ),
    );
    file.close();
    const current = await readEntries(path);
    const previous = await readEntries(`${path}.1`);
    const kept = [...previous, ...current];
    assert(previous.length > 0 && current.length > 0);
    assertEquals(kept, entries.slice(entries.length - kept.length));
    assert((await Deno.stat(path)).size <= maxBytes);
    assert((await Deno.stat(`${path}.1`)).size <= maxBytes);
    assert((await Deno.stat(`${path}.1`)).size + lineBytes(current[0]) > maxBytes);
  });
});

Deno.test("no entry is lost at a rotation: one rotation keeps every entry across both files", async () => {
  await withDir(async (_dir, path) => {
    const entries = Array.from({ length: 500 }, (_, i) => entry(i));
    const total = entries.reduce((sum, e) => sum + lineBytes(e), 0);
    // Room for a bit more than half: exactly one rotation.
    const maxBytes = Math.ceil(total * 0.6);
    const file = createAuditFile(path, { maxBytes });
    for (const e of entries) file.append(e);
    file.close();
    const previous = await readEntries(`${path}.1`);
    const current = await readEntries(path);
    assert(previous.length > 0 && current.length > 0);
    assertEquals([...previous, ...current], entries);
    assert((await Deno.stat(path)).size <= maxBytes);
    assert((await Deno.stat(`${path}.1`)).size <= maxBytes);
  });
});

Deno.test("entries appended in separate batches rotate at the same line boundary", async () => {
  await withDir(async (_dir, path) => {
    const maxBytes = 1000;
    const file = createAuditFile(path, { maxBytes });
    const entries = Array.from({ length: 40 }, (_, i) => entry(i));
    for (const e of entries) {
      file.append(e);
      file.close();
    }
    const kept = [...await readEntries(`${path}.1`), ...await readEntries(path)];
    assertEquals(kept, entries.slice(entries.length - kept.length));
    assert((await Deno.stat(path)).size <= maxBytes);
    assert((await Deno.stat(`${path}.1`)).size <= maxBytes);
  });
});

Deno.test("rotation keeps one .1 file: the older one is replaced, not kept as .2", async () => {
  await withDir(async (dir, path) => {
    await Deno.writeTextFile(`${path}.1`, '{"old":true}\n');
    const one = lineBytes(entry(0));
    const file = createAuditFile(path, { maxBytes: one * 2 });
    for (let i = 0; i < 6; i++) file.append(entry(0));
    file.close();
    const previous = await readText(`${path}.1`);
    assertEquals(previous.includes('"old"'), false);
    assertEquals(await readEntries(`${path}.1`), [entry(0), entry(0)]);
    assertEquals(await readEntries(path), [entry(0), entry(0)]);
    const names = [];
    for await (const e of Deno.readDir(dir)) names.push(e.name);
    assertEquals(names.sort(), ["audit.log", "audit.log.1"]);
  });
});

Deno.test("an existing audit.log's size counts at startup", async () => {
  await withDir(async (_dir, path) => {
    const maxBytes = 2000;
    const old = JSON.stringify({ ...entry(0), tool: "y".repeat(1800) }) + "\n";
    assert(old.length < maxBytes && old.length + lineBytes(entry(1)) > maxBytes);
    await Deno.writeTextFile(path, old);

    const file = createAuditFile(path, { maxBytes });
    file.append(entry(1));
    file.close();
    assertEquals(await readText(`${path}.1`), old, "the old file was rotated whole");
    assertEquals(await readEntries(path), [entry(1)]);
  });
});

Deno.test("an existing small audit.log is appended to, not replaced", async () => {
  await withDir(async (_dir, path) => {
    const old = JSON.stringify(entry(0)) + "\n";
    await Deno.writeTextFile(path, old);
    const file = createAuditFile(path, { maxBytes: 2000 });
    file.append(entry(1));
    file.close();
    assertEquals(await readEntries(path), [entry(0), entry(1)]);
    assertEquals(await readText(`${path}.1`), "");
  });
});

Deno.test({
  name: "audit.log is created with mode 0600, also after a rotation",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    await withDir(async (_dir, path) => {
      const one = lineBytes(entry(0));
      const file = createAuditFile(path, { maxBytes: one });
      file.append(entry(0));
      file.close();
      assertEquals((await Deno.stat(path)).mode! & 0o777, 0o600);
      file.append(entry(0));
      file.close();
      assertEquals((await Deno.stat(path)).mode! & 0o777, 0o600);
      assertEquals((await Deno.stat(`${path}.1`)).mode! & 0o777, 0o600);
    });
  },
});

Deno.test("a write failure is reported through onError and later entries still get written", async () => {
  await withDir(async (dir, path) => {
    const errors: string[] = [];
    const blocked = join(dir, "missing", "audit.log");
    const failing = createAuditFile(blocked, { onError: (m) => errors.push(m) });
    failing.append(entry(0));
    failing.close();
    assertEquals(errors.length, 1);
    assertMatch(errors[0], /^Cannot write .*missing.*audit\.log: /);

    await Deno.mkdir(join(dir, "missing"));
    failing.append(entry(1));
    failing.close();
    assertEquals(await readEntries(blocked), [entry(1)]);
    assertEquals(await readText(path), "");
  });
});

/** A writer over `path` with a hand-moved clock and a 1 s check. */
function clocked(path: string, maxBytes = 2000) {
  let now = 0;
  const errors: string[] = [];
  const file = createAuditFile(path, {
    maxBytes,
    checkMs: 1000,
    clock: () => now,
    onError: (m) => errors.push(m),
  });
  return { file, errors, advance: (ms: number) => (now += ms) };
}

Deno.test("an audit.log removed by someone else is created again at the next check", async () => {
  await withDir(async (_dir, path) => {
    const { file, errors, advance } = clocked(path);
    file.append(entry(0));
    await Deno.remove(path);
    advance(1000);
    file.append(entry(1));
    assertEquals(await readEntries(path), [entry(1)]);
    if (Deno.build.os !== "windows") assertEquals((await Deno.stat(path)).mode! & 0o777, 0o600);
    assertEquals(errors, []);
    file.close();
  });
});

Deno.test("an audit.log moved away is followed by a new one; the moved file keeps its lines", async () => {
  await withDir(async (dir, path) => {
    const { file, advance } = clocked(path);
    file.append(entry(0));
    await Deno.rename(path, join(dir, "audit.log.old"));
    advance(999);
    file.append(entry(1)); // before the check: still the open (moved) file
    advance(1);
    file.append(entry(2));
    assertEquals(await readEntries(join(dir, "audit.log.old")), [entry(0), entry(1)]);
    assertEquals(await readEntries(path), [entry(2)]);
    file.close();
  });
});

Deno.test("an audit.log truncated by someone else: its size is taken again, no early rotation", async () => {
  await withDir(async (_dir, path) => {
    const maxBytes = 2000;
    const { file, advance } = clocked(path, maxBytes);
    const big = { ...entry(0), tool: "y".repeat(1500) };
    file.append(big);
    await Deno.truncate(path, 0);
    advance(1000);
    file.append(entry(1)); // fits in the emptied file: no rotation
    assertEquals(await readText(`${path}.1`), "");
    assertEquals(await readEntries(path), [entry(1)]);
    file.close();
  });
});

Deno.test({
  name: "an existing audit.log with a wider mode is made 0600; close releases the descriptor",
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    await withDir(async (_dir, path) => {
      await Deno.writeTextFile(path, "", { mode: 0o644 });
      await Deno.chmod(path, 0o644);
      const { file } = clocked(path);
      file.append(entry(0));
      assertEquals((await Deno.stat(path)).mode! & 0o777, 0o600);
      const holders = () =>
        [...Deno.readDirSync("/proc/self/fd")].filter((e) => {
          try {
            return Deno.readLinkSync(`/proc/self/fd/${e.name}`) === path;
          } catch {
            return false;
          }
        }).length;
      assertEquals(holders(), 1, "the file stays open between entries");
      file.close();
      assertEquals(holders(), 0, "a closed writer holds no descriptor");
      file.append(entry(1));
      file.close();
      assertEquals(await readEntries(path), [entry(0), entry(1)]);
    });
  },
});

Deno.test("an entry appended after close() is written at once, with no timer or descriptor left", async () => {
  await withDir(async (_dir, path) => {
    const file = createAuditFile(path);
    file.append(entry(0));
    file.close();
    file.append(entry(1)); // a call finishing while the hub shuts down
    assertEquals(await readEntries(path), [entry(0), entry(1)], "on disk before any await");
    // The test's sanitizers fail it if a timer or the file were left open.
  });
});

Deno.test({
  name: "a symbolic link at audit.log is replaced by a private file; its target is left alone",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    await withDir(async (dir, path) => {
      const other = join(dir, "other.txt");
      await Deno.writeTextFile(other, "keep\n");
      await Deno.chmod(other, 0o644);
      await Deno.symlink(other, path);
      const { file, errors, advance } = clocked(path);
      file.append(entry(0));
      assertEquals(errors, []);
      assert((await Deno.lstat(path)).isFile, "audit.log is a plain file now");
      assertEquals((await Deno.stat(path)).mode! & 0o777, 0o600);
      assertEquals(await Deno.readTextFile(other), "keep\n");
      assertEquals(
        (await Deno.stat(other)).mode! & 0o777,
        0o644,
        "the link's target keeps its mode",
      );
      // A link put in place later is noticed at the next check and replaced the same way.
      await Deno.remove(path);
      await Deno.symlink(other, path);
      advance(1000);
      file.append(entry(1));
      file.close();
      assert((await Deno.lstat(path)).isFile);
      assertEquals(await readEntries(path), [entry(1)]);
      assertEquals(await Deno.readTextFile(other), "keep\n");
    });
  },
});
