import { join } from "node:path";
import { assertEquals, assertMatch } from "../../tests/helpers/assert.ts";
import { defaultConfig, type HubConfig } from "../../core/config/schema.ts";
import { type DiscoverInput, discoverPlugins } from "./discover.ts";

const PLUGIN_PKG = JSON.stringify({
  name: "x",
  version: "1.0.0",
  hub: { urlPatterns: ["*://x/*"] },
});

/** Creates `files` (path → content; a trailing "/" makes a folder) under `root`. */
async function layout(root: string, files: Record<string, string>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    const full = join(root, path);
    if (path.endsWith("/")) {
      await Deno.mkdir(full, { recursive: true });
    } else {
      await Deno.mkdir(join(full, ".."), { recursive: true });
      await Deno.writeTextFile(full, content);
    }
  }
}

/** Runs `fn` in a fresh real temp dir with a `config` subfolder, then removes it. */
async function withTemp(fn: (dir: string, configDir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "hub-discover-" }));
  const configDir = join(dir, "config");
  await Deno.mkdir(configDir);
  try {
    await fn(dir, configDir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

function input(configDir: string, config: Partial<HubConfig>, npmRoot?: () => Promise<string>) {
  const result: DiscoverInput = {
    config: { ...defaultConfig(), ...config },
    configDir,
    npmRoot,
    cwd: configDir,
  };
  return result;
}

// --- global npm packages ---

Deno.test("npm discovery finds hub-plugin-* and @scope/hub-plugin-* folders only", async () => {
  await withTemp(async (dir, configDir) => {
    const npm = join(dir, "npm");
    await layout(npm, {
      "hub-plugin-a/": "",
      "@scope/hub-plugin-b/": "",
      "other-pkg/": "",
      "@scope/other/": "",
      "hub-plugin-file": "not a folder",
    });
    const result = await discoverPlugins(input(configDir, {}, () => Promise.resolve(npm)));
    assertEquals(result, {
      candidates: [
        {
          source: "npm",
          dir: join(npm, "@scope", "hub-plugin-b"),
          specifier: "@scope/hub-plugin-b",
        },
        { source: "npm", dir: join(npm, "hub-plugin-a"), specifier: "hub-plugin-a" },
      ],
      errors: [],
    });
  });
});

Deno.test("a failing npm root becomes a discovery error with source npm", async () => {
  await withTemp(async (_dir, configDir) => {
    const result = await discoverPlugins(
      input(configDir, {}, () => Promise.reject(new Error("npm is not installed"))),
    );
    assertEquals(result, {
      candidates: [],
      errors: [{ source: "npm", specifier: "npm root -g", error: "npm is not installed" }],
    });
  });
});

Deno.test("an npm root that does not exist yet yields no candidates and no error", async () => {
  await withTemp(async (dir, configDir) => {
    const result = await discoverPlugins(
      input(configDir, {}, () => Promise.resolve(join(dir, "no-such-root"))),
    );
    assertEquals(result, { candidates: [], errors: [] });
  });
});

Deno.test("without an npmRoot function no npm candidates are looked for", async () => {
  await withTemp(async (_dir, configDir) => {
    assertEquals(await discoverPlugins(input(configDir, {})), { candidates: [], errors: [] });
  });
});

// --- localPlugins ---

Deno.test("localPlugins entries starting with ./ or ../ resolve from the config dir", async () => {
  await withTemp(async (dir, configDir) => {
    await layout(dir, { "config/mine/": "", "sibling/": "" });
    const result = await discoverPlugins(
      input(configDir, { localPlugins: ["./mine", "../sibling"] }),
    );
    assertEquals(result.candidates, [
      { source: "local", dir: join(configDir, "mine"), specifier: "./mine" },
      { source: "local", dir: join(dir, "sibling"), specifier: "../sibling" },
    ]);
  });
});

Deno.test("an absolute localPlugins entry is used as it is", async () => {
  await withTemp(async (dir, configDir) => {
    await layout(dir, { "abs/": "" });
    const result = await discoverPlugins(input(configDir, { localPlugins: [join(dir, "abs")] }));
    assertEquals(result.candidates.map((c) => c.dir), [join(dir, "abs")]);
  });
});

Deno.test("a missing local plugin path becomes a discovery error with source local", async () => {
  await withTemp(async (_dir, configDir) => {
    const result = await discoverPlugins(input(configDir, { localPlugins: ["./gone"] }));
    assertEquals(result.candidates, []);
    assertEquals(result.errors.length, 1);
    assertEquals([result.errors[0].source, result.errors[0].specifier], ["local", "./gone"]);
    assertMatch(result.errors[0].error, /gone is not a folder\. Fix the path, or remove it/);
  });
});

Deno.test("a local plugin path that is a file is refused like a missing one", async () => {
  await withTemp(async (dir, configDir) => {
    await layout(dir, { "file.txt": "x" });
    const result = await discoverPlugins(
      input(configDir, { localPlugins: [join(dir, "file.txt")] }),
    );
    assertMatch(result.errors[0].error, /is not a folder/);
  });
});

Deno.test("a local plugin outside the allowed roots is refused", async () => {
  await withTemp(async (_dir, configDir) => {
    const result = await discoverPlugins(input(configDir, { localPlugins: ["/etc"] }));
    assertEquals(result.candidates, []);
    assertEquals(result.errors[0].specifier, "/etc");
    assertMatch(result.errors[0].error, /outside the folders hub loads local plugins from/);
  });
});

// --- localPluginDirs ---

Deno.test("localPluginDirs yields children whose package.json has a hub field", async () => {
  await withTemp(async (dir, configDir) => {
    await layout(dir, {
      "many/with-hub/package.json": PLUGIN_PKG,
      "many/no-hub/package.json": JSON.stringify({ name: "plain", version: "1.0.0" }),
      "many/no-package/readme.md": "hi",
      "many/broken/package.json": '{ "name": "b", "hub": { ',
      "many/loose-file.json": PLUGIN_PKG,
    });
    const result = await discoverPlugins(input(configDir, { localPluginDirs: ["../many"] }));
    const many = join(dir, "many");
    assertEquals(result, {
      candidates: [
        { source: "local", dir: join(many, "broken"), specifier: join(many, "broken") },
        { source: "local", dir: join(many, "with-hub"), specifier: join(many, "with-hub") },
      ],
      errors: [],
    });
  });
});

Deno.test("a missing localPluginDirs entry becomes a discovery error", async () => {
  await withTemp(async (_dir, configDir) => {
    const result = await discoverPlugins(input(configDir, { localPluginDirs: ["./nope"] }));
    assertEquals([result.errors[0].source, result.errors[0].specifier], ["local", "./nope"]);
    assertMatch(result.errors[0].error, /\(in localPluginDirs\) is not a folder/);
  });
});

Deno.test("a localPluginDirs child that links outside the allowed roots is refused", async () => {
  await withTemp(async (dir, configDir) => {
    await layout(dir, { "many/": "" });
    // A plugin-looking folder outside every root (home, the temp dir, the working directory).
    const outside = await Deno.makeTempDir({ dir: "/var/tmp", prefix: "hub-outside-" });
    try {
      await Deno.writeTextFile(join(outside, "package.json"), PLUGIN_PKG);
      await Deno.symlink(outside, join(dir, "many", "linked"));
      const result = await discoverPlugins(input(configDir, { localPluginDirs: ["../many"] }));
      assertEquals(result.candidates, []);
      assertEquals(result.errors[0].specifier, join(dir, "many", "linked"));
      assertMatch(result.errors[0].error, /is outside the folders/);
    } finally {
      await Deno.remove(outside, { recursive: true });
    }
  });
});

// --- order ---

Deno.test("npm candidates come before local ones so local ones can override them", async () => {
  await withTemp(async (dir, configDir) => {
    const npm = join(dir, "npm");
    await layout(dir, { "npm/hub-plugin-a/": "", "config/a/": "" });
    const result = await discoverPlugins(
      input(configDir, { localPlugins: ["./a"] }, () => Promise.resolve(npm)),
    );
    assertEquals(result.candidates.map((c) => c.source), ["npm", "local"]);
  });
});
