/// <reference lib="deno.ns" />
import { join } from "node:path";
import { assertEquals } from "../../tests/helpers/assert.ts";
import { logsCommand } from "./logs.ts";

Deno.test("hub logs: a plugin's line cannot send terminal escapes or reorder text", async () => {
  const dir = await Deno.makeTempDir({ prefix: "hub-logs-visible-" });
  const before = Deno.env.get("HUB_CONFIG_DIR");
  const printed: string[] = [];
  const original = console.log;
  try {
    await Deno.writeTextFile(
      join(dir, "plugins.log"),
      "2026-01-01 [plugin:spoof] done\x1b]0;owned\x07 \u202Efdp.exe\u200B\n",
    );
    Deno.env.set("HUB_CONFIG_DIR", dir);
    console.log = (line: string) => printed.push(line);
    await logsCommand({ plugin: "spoof", lines: "5" });
  } finally {
    console.log = original;
    if (before === undefined) Deno.env.delete("HUB_CONFIG_DIR");
    else Deno.env.set("HUB_CONFIG_DIR", before);
    await Deno.remove(dir, { recursive: true });
  }
  assertEquals(printed, [
    "2026-01-01 [plugin:spoof] done⟨U+001B⟩]0;owned⟨U+0007⟩ ⟨U+202E⟩fdp.exe⟨U+200B⟩",
  ]);
});
