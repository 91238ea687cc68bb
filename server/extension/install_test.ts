import { join } from "node:path";
import { assert, assertEquals, assertRejects } from "../../tests/helpers/assert.ts";
import { EXTENSION_FILES, installExtension, SERVER_FILE } from "./install.ts";

interface Fixture {
  root: string;
  source: string;
  /** `<config>/extension`, not created yet. */
  dir: string;
}

async function withDirs(body: (f: Fixture) => Promise<void>) {
  const root = await Deno.makeTempDir({ prefix: "hub_install_test_" });
  const source = join(root, "dist");
  await Deno.mkdir(source);
  try {
    await body({ root, source, dir: join(root, "config", "extension") });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

function manifest(version: string, extra: Record<string, unknown> = {}) {
  return JSON.stringify({ manifest_version: 3, name: "hub", version, ...extra }, null, 2);
}

async function writeSource(source: string, version: string, background = "// background v1\n") {
  await Deno.writeTextFile(join(source, "manifest.json"), manifest(version));
  await Deno.writeTextFile(join(source, "background.js"), background);
  for (const name of EXTENSION_FILES.filter((n) => !/^(manifest\.json|background\.js)$/.test(n))) {
    await Deno.writeTextFile(join(source, name), `// ${name}\n`);
  }
}

/** Identity of a file's current content on disk: a rewrite (atomic rename) changes the inode. */
async function stamp(path: string) {
  const info = await Deno.stat(path);
  return { ino: info.ino, mtime: info.mtime?.getTime(), text: await Deno.readTextFile(path) };
}

async function stamps(dir: string, names: readonly string[]) {
  return Object.fromEntries(
    await Promise.all(names.map(async (n) => [n, await stamp(join(dir, n))])),
  );
}

const ALL_FILES = [...EXTENSION_FILES, SERVER_FILE];

Deno.test("a first install copies manifest, background and bridge and writes server.json", async () => {
  await withDirs(async ({ source, dir }) => {
    await writeSource(source, "1.2.3");
    assertEquals(await installExtension(dir, 41234, source), {
      action: "installed",
      version: "1.2.3",
    });
    for (const name of EXTENSION_FILES) {
      assertEquals(
        await Deno.readTextFile(join(dir, name)),
        await Deno.readTextFile(join(source, name)),
      );
      if (Deno.build.os !== "windows") {
        // Chromium must be able to read the extension's files.
        assertEquals((await Deno.stat(join(dir, name))).mode! & 0o777, 0o644);
      }
    }
    assertEquals(JSON.parse(await Deno.readTextFile(join(dir, SERVER_FILE))), { port: 41234 });
    // No temp files are left beside them.
    const entries = [];
    for await (const entry of Deno.readDir(dir)) entries.push(entry.name);
    assertEquals(entries.sort(), [...ALL_FILES].sort());
  });
});

Deno.test("a second install of the same files is unchanged and rewrites nothing", async () => {
  await withDirs(async ({ source, dir }) => {
    await writeSource(source, "1.2.3");
    await installExtension(dir, 41234, source);
    const before = await stamps(dir, ALL_FILES);
    assertEquals(await installExtension(dir, 41234, source), {
      action: "unchanged",
      version: "1.2.3",
    });
    assertEquals(await stamps(dir, ALL_FILES), before);
  });
});

Deno.test("a new build (new manifest version) is updated, with the previous version", async () => {
  await withDirs(async ({ source, dir }) => {
    await writeSource(source, "1.2.3");
    await installExtension(dir, 41234, source);
    const before = await stamps(dir, ALL_FILES);
    await writeSource(source, "1.3.0", "// background v2\n");
    assertEquals(await installExtension(dir, 41234, source), {
      action: "updated",
      version: "1.3.0",
      previousVersion: "1.2.3",
    });
    const after = await stamps(dir, ALL_FILES);
    assertEquals(after["background.js"].text, "// background v2\n");
    assertEquals(JSON.parse(after["manifest.json"].text).version, "1.3.0");
    assert(after["manifest.json"].ino !== before["manifest.json"].ino, "manifest rewritten");
    // Files whose content did not change are left alone, even during an update.
    assertEquals(after["bridge.js"], before["bridge.js"]);
    assertEquals(after[SERVER_FILE], before[SERVER_FILE]);
  });
});

Deno.test("version_name wins over version when the manifest has both", async () => {
  await withDirs(async ({ source, dir }) => {
    await writeSource(source, "1.0.0");
    await Deno.writeTextFile(
      join(source, "manifest.json"),
      manifest("1.0.0", { version_name: "1.0.0-dev" }),
    );
    assertEquals((await installExtension(dir, 1, source)).version, "1.0.0-dev");
  });
});

Deno.test("a new port rewrites server.json only", async () => {
  await withDirs(async ({ source, dir }) => {
    await writeSource(source, "1.2.3");
    await installExtension(dir, 41234, source);
    const before = await stamps(dir, EXTENSION_FILES);
    const result = await installExtension(dir, 50000, source);
    assertEquals(result, { action: "unchanged", version: "1.2.3" });
    assertEquals(JSON.parse(await Deno.readTextFile(join(dir, SERVER_FILE))), { port: 50000 });
    assertEquals(await stamps(dir, EXTENSION_FILES), before);
  });
});

Deno.test("a missing source file is an error that says to build the extension", async () => {
  await withDirs(async ({ source, dir }) => {
    await writeSource(source, "1.2.3");
    await Deno.remove(join(source, "dom_kit.js"));
    await assertRejects(
      installExtension(dir, 41234, source),
      (error: Error) => {
        assert(error.message.includes("deno task build:extension"), error.message);
        assert(error.message.includes(join(source, "dom_kit.js")), error.message);
        return true;
      },
    );
  });
});

// A build missing one file must not leave the installed extension mixing two builds.
Deno.test({
  name: "an update that fails on a missing file leaves the installed build as it was",
}, async () => {
  await withDirs(async ({ source, dir }) => {
    await writeSource(source, "1.0.0");
    await installExtension(dir, 41234, source);
    const before = await stamps(dir, ALL_FILES);
    await writeSource(source, "2.0.0", "// v2\n");
    await Deno.remove(join(source, "dom_kit.js"));
    await assertRejects(installExtension(dir, 41234, source), /deno task build:extension/);
    assertEquals(await stamps(dir, ALL_FILES), before);
  });
});

Deno.test("an empty source folder fails the same way and installs no server.json", async () => {
  await withDirs(async ({ source, dir }) => {
    await assertRejects(installExtension(dir, 41234, source), /deno task build:extension/);
    await assertRejects(Deno.stat(join(dir, SERVER_FILE)), Deno.errors.NotFound);
  });
});

Deno.test("auth.json and adapters/ are left untouched by install and update", async () => {
  await withDirs(async ({ source, dir }) => {
    await Deno.mkdir(join(dir, "adapters"), { recursive: true });
    const secret = JSON.stringify({ secret: "a".repeat(64) });
    await Deno.writeTextFile(join(dir, "auth.json"), secret, { mode: 0o600 });
    await Deno.writeTextFile(join(dir, "adapters", "test-app-1234.js"), "// adapter\n");
    const kept = ["auth.json", join("adapters", "test-app-1234.js")];
    const before = await stamps(dir, kept);

    await writeSource(source, "1.0.0");
    assertEquals((await installExtension(dir, 41234, source)).action, "installed");
    await writeSource(source, "2.0.0", "// v2\n");
    assertEquals((await installExtension(dir, 41235, source)).action, "updated");

    assertEquals(await stamps(dir, kept), before);
    if (Deno.build.os !== "windows") {
      assertEquals((await Deno.stat(join(dir, "auth.json"))).mode! & 0o777, 0o600);
    }
    const adapters = [];
    for await (const entry of Deno.readDir(join(dir, "adapters"))) adapters.push(entry.name);
    assertEquals(adapters, ["test-app-1234.js"]);
  });
});

Deno.test("without a source argument it installs the committed extension/dist build", async () => {
  const root = await Deno.makeTempDir({ prefix: "hub_install_test_" });
  try {
    const dir = join(root, "extension");
    const result = await installExtension(dir, 41234);
    const dist = new URL("../../extension/dist/", import.meta.url);
    const version = JSON.parse(await Deno.readTextFile(new URL("manifest.json", dist)));
    assertEquals(result.action, "installed");
    assertEquals(result.version, version.version_name ?? version.version);
    for (const name of EXTENSION_FILES) {
      assertEquals(
        await Deno.readTextFile(join(dir, name)),
        await Deno.readTextFile(new URL(name, dist)),
      );
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
