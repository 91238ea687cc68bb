import { assertEquals } from "../../tests/helpers/assert.ts";
import { withTempDir } from "../../tests/helpers/hub_process.ts";
import { hubPaths } from "../../core/config/paths.ts";
import { currentStartTime } from "../../core/process/process_identity.ts";
import { pidOf, readPidFile, removeOwnPidFile, writePidFile } from "./pid_file.ts";
import { VERSION } from "../../protocol/version.ts";

Deno.test("server.pid records pid, start time, port, config dir and version (mode 0600)", async () => {
  await withTempDir(async (dir) => {
    const paths = hubPaths(dir);
    await writePidFile(paths, 4321);
    const file = await readPidFile(paths.pidFile);
    assertEquals(file, {
      kind: "record",
      record: {
        pid: Deno.pid,
        startTime: await currentStartTime(),
        port: 4321,
        configDir: dir,
        version: VERSION,
      },
    });
    if (Deno.build.os !== "windows") {
      assertEquals((await Deno.stat(paths.pidFile)).mode! & 0o777, 0o600);
    }
    await removeOwnPidFile(paths.pidFile);
    assertEquals(await readPidFile(paths.pidFile), undefined);
  });
});

Deno.test("readPidFile tells the old bare-pid format and garbage apart", async () => {
  await withTempDir(async (dir) => {
    const path = `${dir}/server.pid`;
    await Deno.writeTextFile(path, "1234\n");
    assertEquals(await readPidFile(path), { kind: "legacy", pid: 1234 });
    assertEquals(pidOf(await readPidFile(path)), 1234);
    for (
      const text of [
        "nonsense",
        "{}",
        '{"pid":-1,"port":1,"configDir":"/x","version":"1"}',
        '{"pid":1,"port":70000,"configDir":"/x","version":"1"}',
        '{"pid":1,"port":1,"configDir":3,"version":"1"}',
        "9".repeat(20),
      ]
    ) {
      await Deno.writeTextFile(path, text);
      assertEquals(await readPidFile(path), { kind: "invalid" }, text);
    }
  });
});

Deno.test("removeOwnPidFile leaves another process's file alone", async () => {
  await withTempDir(async (dir) => {
    const path = `${dir}/server.pid`;
    await Deno.writeTextFile(path, `${Deno.pid + 1}\n`);
    await removeOwnPidFile(path);
    assertEquals(await readPidFile(path), { kind: "legacy", pid: Deno.pid + 1 });
  });
});
