import { assertEquals, assertThrows } from "../../tests/helpers/assert.ts";
import { liveFile } from "./live_file.ts";

Deno.test("liveFile follows changes, keeps the last good value on bad or missing files", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/value.json`;
    Deno.writeTextFileSync(path, '{"v": 1}');
    const errors: string[] = [];
    const file = liveFile(path, (t) => JSON.parse(t).v as number, (m) => errors.push(m));
    assertEquals(file.get(), 1);
    Deno.writeTextFileSync(path, '{"v": 22}');
    assertEquals(file.get(), 22);
    Deno.writeTextFileSync(path, '{"v": ');
    assertEquals(file.get(), 22);
    assertEquals(file.get(), 22);
    assertEquals(errors.length, 1, "a bad change is reported once");
    Deno.removeSync(path);
    assertEquals(file.get(), 22);
    assertThrows(() => file.refresh(), /does not exist/);
    Deno.writeTextFileSync(path, '{"v": 333}');
    assertEquals(file.get(), 333);
    assertEquals(file.refresh(), 333);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("liveFile throws at creation when the file is missing or invalid", () => {
  assertThrows(() => liveFile("/nonexistent/x.json", JSON.parse, () => {}), /does not exist/);
});
