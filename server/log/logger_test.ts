import { assert, assertEquals, assertMatch } from "../../tests/helpers/assert.ts";
import { createLogger, MAX_LOG_MESSAGE_CHARS, redact } from "./logger.ts";
import { makeFifo } from "../../tests/helpers/file_kinds.ts";

Deno.test("redact removes 64-hex secrets and Bearer tokens", () => {
  const secret = "0123456789abcdef".repeat(4);
  assertEquals(redact(`secret ${secret} end`), "secret [redacted] end");
  assertEquals(redact("Authorization: Bearer abc.def"), "Authorization: Bearer [redacted]");
  assertEquals(redact("plain 1234"), "plain 1234");
});

Deno.test("the file gets lines at or above the level, scrubbed, with timestamps", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const file = `${dir}/server.log`;
    const logger = createLogger({
      level: "warn",
      file,
      terminal: false,
      clock: () => new Date("2026-01-02T03:04:05.000Z"),
    });
    logger.debug("hidden");
    logger.info("hidden too");
    logger.warn(`token ${"f".repeat(64)}`);
    logger.error("bad");
    const lines = (await Deno.readTextFile(file)).trimEnd().split("\n");
    assertEquals(lines, [
      "2026-01-02T03:04:05.000Z WARN  token [redacted]",
      "2026-01-02T03:04:05.000Z ERROR bad",
    ]);
    assert((await Deno.stat(file)).mode! & 0o600);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("server.log rotates to server.log.1 before a line would pass the limit", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const file = `${dir}/server.log`;
    const logger = createLogger({ level: "info", file, terminal: false, maxFileBytes: 1000 });
    for (let i = 0; i < 100; i++) logger.info(`line ${i} ${"x".repeat(50)}`);
    const current = await Deno.readTextFile(file);
    const previous = await Deno.readTextFile(`${file}.1`);
    assert(current.length <= 1000 && previous.length <= 1000);
    assert(current.includes("line 99 "), "the newest line is in server.log");
    assert(previous.endsWith("\n") && current.endsWith("\n"), "no line is split");
    const first = Number(/line (\d+) /.exec(current)![1]);
    assert(previous.includes(`line ${first - 1} `), "server.log.1 holds the lines just before");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a logger started on a full server.log rotates it on the first line", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const file = `${dir}/server.log`;
    await Deno.writeTextFile(file, "old\n".repeat(300));
    createLogger({ level: "info", file, terminal: false, maxFileBytes: 1000 }).info("new");
    assertMatch(await Deno.readTextFile(file), /^\S+ INFO {2}new\n$/);
    assertEquals(await Deno.readTextFile(`${file}.1`), "old\n".repeat(300));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a huge message is cut to a bounded line, still scrubbed", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const file = `${dir}/server.log`;
    const logger = createLogger({ level: "info", file, terminal: false });
    logger.error(`Bearer abc ${"y".repeat(1_000_000)}`);
    const text = await Deno.readTextFile(file);
    assert(text.length < MAX_LOG_MESSAGE_CHARS + 100, `${text.length} characters`);
    assert(text.includes("Bearer [redacted]"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test({
  name: "a FIFO at server.log is replaced by a plain file at start: the hub never blocks on it",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    const dir = await Deno.makeTempDir();
    try {
      const file = `${dir}/server.log`;
      await makeFifo(file);
      createLogger({ level: "info", file, terminal: false }).info("started");
      assert((await Deno.lstat(file)).isFile, "server.log is a plain file now");
      assertMatch(await Deno.readTextFile(file), /INFO {2}started\n$/);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "a link at server.log is replaced by a plain file; its target gets no line",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    const dir = await Deno.makeTempDir();
    try {
      const file = `${dir}/server.log`;
      await Deno.writeTextFile(`${dir}/other.txt`, "keep\n");
      await Deno.symlink(`${dir}/other.txt`, file);
      createLogger({ level: "info", file, terminal: false }).info("started");
      assert((await Deno.lstat(file)).isFile);
      assertEquals(await Deno.readTextFile(`${dir}/other.txt`), "keep\n");
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
