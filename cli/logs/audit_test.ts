import { join } from "node:path";
import { assertEquals, assertRejects } from "../../tests/helpers/assert.ts";
import { withTempDir } from "../../tests/helpers/hub_process.ts";
import { linkToDevZero, makeFifo } from "../../tests/helpers/file_kinds.ts";
import { UserError } from "../../core/cli/user_error.ts";
import { formatEntry, readAuditFiles } from "./audit.ts";

const entry = (tool: string) => ({
  timestamp: "2026-01-01T00:00:00.000Z",
  plugin: "p",
  tool,
  success: true,
  durationMs: 1,
});

Deno.test("hub audit --file: audit.log.1 then audit.log, newest first", async () => {
  await withTempDir(async (dir) => {
    const path = join(dir, "audit.log");
    await Deno.writeTextFile(`${path}.1`, JSON.stringify(entry("old")) + "\n");
    await Deno.writeTextFile(path, JSON.stringify(entry("new")) + "\n");
    const tools = (await readAuditFiles(path)).map((e) => e.tool);
    assertEquals(tools, ["new", "old"]);
  });
});

Deno.test("hub audit --file: a FIFO as audit.log is refused at once with advice", async () => {
  await withTempDir(async (dir) => {
    const path = join(dir, "audit.log");
    await makeFifo(path);
    await assertRejects(() => readAuditFiles(path), UserError, "named pipe");
    await Deno.remove(path);
    await linkToDevZero(path);
    await assertRejects(() => readAuditFiles(path), UserError, "move it away (mv ");
  });
});

Deno.test("hub audit: a line names the site a call touched, before its error", () => {
  assertEquals(
    formatEntry({ ...entry("browser_get_page_text"), site: "https://app.example.com" }),
    "2026-01-01 00:00:00Z  ok        1ms  browser_get_page_text  on https://app.example.com",
  );
  const refused = {
    ...entry("browser_click_element"),
    success: false,
    site: "bank.example",
    error: { code: "SITE_NOT_ALLOWED", message: "Off." },
  };
  assertEquals(
    formatEntry(refused),
    "2026-01-01 00:00:00Z  FAIL      1ms  browser_click_element  on bank.example  SITE_NOT_ALLOWED: Off.",
  );
  assertEquals(formatEntry(entry("t")), "2026-01-01 00:00:00Z  ok        1ms  t");
});
