import { assert, assertEquals, assertMatch } from "../../tests/helpers/assert.ts";
import { hubPaths } from "../../core/config/paths.ts";
import { setupConfigDir } from "../../core/config/setup.ts";
import { generateSecret, writeSecret } from "../../core/config/secret.ts";
import { createConfigStore } from "../../core/config/config_store.ts";
import type { Logger } from "../log/logger_interface.ts";
import { openHubFiles } from "./hub_files.ts";
import { until } from "../../tests/helpers/until.ts";

async function withConfigDir(fn: (paths: ReturnType<typeof hubPaths>) => Promise<void>) {
  const dir = await Deno.makeTempDir({ prefix: "hub_files_" });
  try {
    const paths = hubPaths(dir);
    await setupConfigDir(paths);
    await fn(paths);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

function recordingLogger(lines: string[]): Logger {
  const record = (m: string) => lines.push(m);
  return { debug: record, info: record, warn: record, error: record };
}

Deno.test("the watcher brings a rotated secret and a config write in without waiting for the bound", async () => {
  await withConfigDir(async (paths) => {
    // A bound of a minute: only the watcher can make these changes visible in time.
    const files = openHubFiles(paths, recordingLogger([]), { live: { maxAgeMs: 60_000 } });
    try {
      const next = generateSecret();
      await writeSecret(paths.auth, next);
      await until(() => files.secret.get() === next, "the new secret");
      await createConfigStore(paths.config).update((c) => (c.port = 4321));
      await until(() => files.config.get().port === 4321, "the new port");
      const config = files.config.get();
      for (let i = 0; i < 10; i++) {
        await new Promise((r) => setTimeout(r, 20)); // room for any event a read would cause
        assert(files.config.get() === config, "the same config object while nothing changed");
      }
      const third = generateSecret();
      await writeSecret(paths.auth, third);
      await until(() => files.secret.get() === third, "a second rotation");
    } finally {
      files.close();
    }
  });
});

Deno.test("without native watching, changes are seen within the bound; freshSecret at once", async () => {
  await withConfigDir(async (paths) => {
    const lines: string[] = [];
    const files = openHubFiles(paths, recordingLogger(lines), {
      watchFs: () => {
        throw new Error("Too many open files (os error 24)");
      },
      live: { maxAgeMs: 50 },
    });
    try {
      assertMatch(lines[0], /Too many open files.*looked at every 50 ms instead/);
      const next = generateSecret();
      await writeSecret(paths.auth, next);
      await new Promise((r) => setTimeout(r, 15)); // past the shortest gap between two looks
      assertEquals(files.freshSecret(), next);
      const third = generateSecret();
      await writeSecret(paths.auth, third);
      await until(() => files.secret.get() === third, "the new secret by time");
    } finally {
      files.close();
    }
  });
});

Deno.test("after close() only time and freshSecret bring changes in", async () => {
  await withConfigDir(async (paths) => {
    const files = openHubFiles(paths, recordingLogger([]), { live: { maxAgeMs: 60_000 } });
    const before = files.secret.get();
    files.close();
    const next = generateSecret();
    await writeSecret(paths.auth, next);
    await new Promise((r) => setTimeout(r, 100));
    assertEquals(files.secret.get(), before, "no watcher after close");
    assertEquals(files.freshSecret(), next);
    assertEquals(files.secret.get(), next);
  });
});

Deno.test("onConfigTouched hears a config write after the live config looked again", async () => {
  await withConfigDir(async (paths) => {
    const files = openHubFiles(paths, recordingLogger([]), { live: { maxAgeMs: 60_000 } });
    const seen: number[] = [];
    files.onConfigTouched(() => seen.push(files.config.get().port));
    try {
      await createConfigStore(paths.config).update((c) => (c.port = 4322));
      await until(() => seen.includes(4322), "the listener seeing the new port");
    } finally {
      files.close();
    }
  });
});
