import { join } from "node:path";
import { assertEquals, assertMatch } from "../../tests/helpers/assert.ts";
import { withTempDir } from "../../tests/helpers/hub_process.ts";
import { ensureInstallationId, readInstallationId, telemetryIdPath } from "./installation_id.ts";
import { createConfigStore } from "../config/config_store.ts";

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

Deno.test("the id is a random UUID, created once in its own 0600 file and then kept", async () => {
  await withTempDir(async (dir) => {
    assertEquals(await readInstallationId(dir), undefined);
    const id = await ensureInstallationId(dir);
    assertMatch(id, UUID_V4);
    assertEquals(await Deno.readTextFile(telemetryIdPath(dir)), id + "\n");
    if (Deno.build.os !== "windows") {
      assertEquals((await Deno.stat(telemetryIdPath(dir))).mode! & 0o777, 0o600);
    }
    assertEquals(await ensureInstallationId(dir), id);
    assertEquals(await readInstallationId(dir), id);
  });
});

Deno.test("two installations (config dirs) get different ids", async () => {
  await withTempDir(async (a) => {
    await withTempDir(async (b) => {
      assertEquals((await ensureInstallationId(a)) === (await ensureInstallationId(b)), false);
    });
  });
});

Deno.test("a broken or foreign id file is replaced with a fresh id", async () => {
  await withTempDir(async (dir) => {
    for (const text of ["", "garbage", '{"id":1}', "00000000-0000-0000-0000-000000000000"]) {
      await Deno.writeTextFile(telemetryIdPath(dir), text);
      assertEquals(await readInstallationId(dir), undefined, text);
      const id = await ensureInstallationId(dir);
      assertMatch(id, UUID_V4);
      assertEquals(await readInstallationId(dir), id);
    }
  });
});

Deno.test("concurrent first uses agree on one id; a config reset keeps it", async () => {
  await withTempDir(async (dir) => {
    const configDir = join(dir, "new");
    const ids = await Promise.all(Array.from({ length: 8 }, () => ensureInstallationId(configDir)));
    assertEquals(new Set(ids).size, 1);
    const store = createConfigStore(join(configDir, "config.json"));
    await store.ensure();
    await store.remove();
    assertEquals(await readInstallationId(configDir), ids[0]);
  });
});

Deno.test("onCreated is told when the id is made, not when it is read back", async () => {
  await withTempDir(async (dir) => {
    let created = 0;
    const id = await ensureInstallationId(dir, () => created++);
    assertEquals(await ensureInstallationId(dir, () => created++), id);
    assertEquals(created, 1);
  });
});
