/// <reference lib="deno.ns" />
import { assert, assertEquals } from "../../../tests/helpers/assert.ts";
import { createExtensionLog, LOG_ENTRY_MAX_CHARS, LOG_LIMIT } from "./extension_log.ts";

function quietLog() {
  const printed: string[] = [];
  const print = (m: string) => void printed.push(m);
  const log = createExtensionLog({
    console: { debug: print, info: print, warn: print, error: print },
    clock: () => 1,
  });
  return { log, printed };
}

Deno.test("entries keep their level and detail, oldest first, filtered by level", () => {
  const { log } = quietLog();
  log.info("connected");
  log.error("failed", new Error("boom"));
  assertEquals(log.entries(), [
    { time: 1, level: "info", message: "connected" },
    { time: 1, level: "error", message: "failed: boom" },
  ]);
  assertEquals(log.entries({ minLevel: "warn" }).length, 1);
});

Deno.test("a huge entry is cut in the ring, and the ring stays under its byte bound", () => {
  const { log, printed } = quietLog();
  log.warn("refused", { huge: "q".repeat(1_000_000) });
  assert(printed[0].length > 1_000_000, "the console still gets the whole message");
  const long = "q".repeat(3 * LOG_ENTRY_MAX_CHARS);
  for (let i = 0; i < LOG_LIMIT + 10; i++) log.warn("refused", { long });
  const entries = log.entries();
  assertEquals(entries.length, LOG_LIMIT);
  for (const entry of entries) {
    assertEquals(entry.message.length, LOG_ENTRY_MAX_CHARS);
    assert(entry.message.endsWith("…"));
  }
});
