import { assert, assertEquals, assertThrows } from "../../tests/helpers/assert.ts";
import { liveFile } from "./live_file.ts";

/** The bound of these tests' files. */
const maxBytes = 1024 * 1024;
import { linkToDevZero, replaceWithFifo } from "../../tests/helpers/file_kinds.ts";

async function withFile(fn: (path: string) => void | Promise<void>) {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/value.json`;
    Deno.writeTextFileSync(path, '{"v": 1}');
    await fn(path);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** A live file over `path` with a hand-moved clock, counting parses and errors. */
function follow(path: string, maxAgeMs = 100) {
  let now = 0;
  let parses = 0;
  const errors: string[] = [];
  const parse = (t: string) => {
    parses++;
    return JSON.parse(t).v as number;
  };
  const file = liveFile(path, parse, (m) => errors.push(m), {
    maxAgeMs,
    maxBytes,
    clock: () => now,
  });
  return {
    file,
    errors,
    parses: () => parses,
    advance: (ms: number) => (now += ms),
  };
}

Deno.test("liveFile follows changes, keeps the last good value on bad or missing files", async () => {
  await withFile((path) => {
    const { file, errors, advance } = follow(path);
    assertEquals(file.get(), 1);
    Deno.writeTextFileSync(path, '{"v": 22}');
    advance(100);
    assertEquals(file.get(), 22);
    Deno.writeTextFileSync(path, '{"v": ');
    advance(100);
    assertEquals(file.get(), 22);
    advance(100);
    assertEquals(file.get(), 22);
    assertEquals(errors.length, 1, "a bad change is reported once");
    Deno.removeSync(path);
    advance(100);
    assertEquals(file.get(), 22);
    assertEquals(errors.length, 2, "a removal is reported once");
    assertThrows(() => file.refresh(), /does not exist/);
    Deno.writeTextFileSync(path, '{"v": 333}');
    advance(100);
    assertEquals(file.get(), 333);
    assertEquals(file.refresh(), 333);
  });
});

Deno.test("liveFile answers from memory until its bound, then looks once", async () => {
  await withFile((path) => {
    const { file, advance, parses } = follow(path, 100);
    Deno.writeTextFileSync(path, '{"v": 22}'); // another size: a new stamp whatever the clock
    assertEquals(file.get(), 1, "no look before the bound");
    advance(99);
    assertEquals(file.get(), 1);
    advance(1);
    assertEquals(file.get(), 22, "looked at the bound");
    assertEquals(parses(), 2);
    advance(500);
    assertEquals(file.get(), 22);
    assertEquals(parses(), 2, "an unchanged file is not read again");
  });
});

Deno.test("touched() makes the next get() look; fresh() looks at once", async () => {
  await withFile((path) => {
    const { file, advance } = follow(path, 60_000);
    Deno.writeTextFileSync(path, '{"v": 5}'); // same size, maybe the same mtime
    assertEquals(file.get(), 1);
    file.touched();
    assertEquals(file.get(), 5);
    Deno.writeTextFileSync(path, '{"v": 2}');
    file.touched();
    assertEquals(file.get(), 2, "after an event the file is read even when its stamp is the same");
    Deno.writeTextFileSync(path, '{"v": 333}');
    assertEquals(file.get(), 2);
    advance(10);
    assertEquals(file.fresh(), 333);
    assertEquals(file.get(), 333);
  });
});

Deno.test("an event that changed nothing keeps the value: no parse, the same object", async () => {
  await withFile((path) => {
    let parses = 0;
    const file = liveFile(path, (t) => (parses++, { v: JSON.parse(t).v }), () => {}, {
      maxAgeMs: 60_000,
      maxBytes,
    });
    const first = file.get();
    file.touched(); // a late event of an earlier write
    assert(file.get() === first, "the same object");
    Deno.writeTextFileSync(path, '{"v": 1}'); // the same bytes written again
    file.touched();
    assert(file.get() === first, "the same object after a rewrite of the same bytes");
    assertEquals(parses, 1);
    Deno.writeTextFileSync(path, '{"v": 7}');
    file.touched();
    assertEquals(file.get(), { v: 7 });
    assertEquals(parses, 2);
  });
});

Deno.test("fresh() looks at most once per gap, and reads after a pending event", async () => {
  await withFile((path) => {
    const { file, advance, parses } = follow(path, 60_000);
    Deno.writeTextFileSync(path, '{"v": 22}');
    assertEquals(file.fresh(), 1, "looked at creation, less than the gap ago");
    advance(9);
    assertEquals(file.fresh(), 1);
    advance(1);
    assertEquals(file.fresh(), 22, "looked once the gap passed");
    assertEquals(parses(), 2);
    Deno.writeTextFileSync(path, '{"v": 33}'); // same size, maybe the same stamp
    file.touched();
    assertEquals(file.fresh(), 33, "a pending event forces a read, even within the gap");
    assertEquals(parses(), 3);
    advance(10);
    assertEquals(file.fresh(), 33);
    assertEquals(parses(), 3, "an unchanged file is not read again by fresh()");
  });
});

Deno.test("a flood of fresh() calls costs one stat per gap", async () => {
  await withFile((path) => {
    let now = 0;
    let stats = 0;
    const realStat = Deno.statSync;
    const file = liveFile(path, (t) => JSON.parse(t).v as number, () => {}, {
      maxBytes,
      clock: () => now,
    });
    Deno.statSync = ((p: string | URL) => {
      stats++;
      return realStat(p);
    }) as typeof Deno.statSync;
    try {
      for (let i = 0; i < 1000; i++) {
        now += 0.1; // 1,000 calls within 100 ms
        file.fresh();
      }
    } finally {
      Deno.statSync = realStat;
    }
    assert(stats <= 11, `1,000 calls in 100 ms made ${stats} stats`);
    assert(stats >= 9, `expected about one stat per 10 ms, got ${stats}`);
  });
});

Deno.test("a broken version is read once, not at every look", async () => {
  await withFile((path) => {
    const { file, errors, parses, advance } = follow(path);
    Deno.writeTextFileSync(path, "{ a broken edit");
    for (let i = 0; i < 5; i++) {
      advance(100);
      assertEquals(file.get(), 1);
    }
    assertEquals([parses(), errors.length], [2, 1]);
    Deno.writeTextFileSync(path, '{"v": 4444}');
    advance(100);
    assertEquals(file.get(), 4444);
  });
});

Deno.test("liveFile throws at creation when the file is missing or invalid", async () => {
  assertThrows(
    () => liveFile("/nonexistent/x.json", JSON.parse, () => {}, { maxBytes }),
    /does not exist/,
  );
  await withFile((path) => {
    Deno.writeTextFileSync(path, "{");
    assertThrows(() => liveFile(path, JSON.parse, () => {}, { maxBytes }), SyntaxError);
  });
});

Deno.test({
  name: "a FIFO, a link to /dev/zero or an oversized file keeps the last good value, never opened",
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    await withFile(async (path) => {
      const f = follow(path);
      for (
        const [spoil, reason] of [
          [() => replaceWithFifo(path), /is a named pipe \(FIFO\), not a regular file/],
          [() => linkToDevZero(path), /is a character device/],
          [
            () => Deno.writeTextFile(path, `{"v": 3, "pad": "${"x".repeat(2 << 20)}"}`),
            /over the limit of 1 MB/,
          ],
        ] as const
      ) {
        await spoil();
        f.advance(100);
        assertEquals(f.file.get(), 1, String(reason));
        assert(reason.test(f.errors.at(-1) ?? ""), f.errors.at(-1));
        assertThrows(() => f.file.refresh(), reason);
        await Deno.remove(path);
        Deno.writeTextFileSync(path, '{"v": 1}');
      }
      Deno.writeTextFileSync(path, '{"v": 2}');
      f.file.touched();
      assertEquals(f.file.get(), 2, "a good file is taken again");
    });
  },
});
