import { assert, assertEquals, assertThrows } from "../../tests/helpers/assert.ts";
import { createLogger, parseLogLevel, redact } from "./logger.ts";

Deno.test("parseLogLevel accepts the five levels, defaults to info, rejects others", () => {
  assertEquals(parseLogLevel(undefined), "info");
  assertEquals(parseLogLevel("DEBUG"), "debug");
  assertEquals(parseLogLevel("silent"), "silent");
  assertThrows(() => parseLogLevel("verbose"), /debug, info, warn, error, silent/);
});

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
