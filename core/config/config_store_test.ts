import { assert, assertEquals, assertRejects } from "../../tests/helpers/assert.ts";
import { createConfigStore, UNUSABLE_CONFIG } from "./config_store.ts";
import { isUserError } from "../cli/user_error.ts";
import { defaultConfig } from "./schema.ts";
import { withTempDir } from "../../tests/helpers/hub_process.ts";

Deno.test("ensure creates config.json with every default and mode 0600, once", async () => {
  await withTempDir(async (dir) => {
    const store = createConfigStore(`${dir}/config.json`);
    assertEquals((await store.ensure()).created, true);
    assertEquals((await store.ensure()).created, false);
    const onDisk = JSON.parse(await Deno.readTextFile(store.path));
    assertEquals(onDisk, defaultConfig());
    assertEquals(onDisk.port, 9515);
    assertEquals(onDisk.updateCheckIntervalMinutes, 30);
    assertEquals(onDisk.telemetry, true);
    assertEquals((await Deno.stat(store.path)).mode! & 0o777, 0o600);
  });
});

Deno.test("10 stores ensuring a missing file at once: one creates it, none takes the lock", async () => {
  await withTempDir(async (dir) => {
    // The locked way writes with a rename; here a rename fails, so only the lockless way works.
    const rename = () => Promise.reject(new Error("the locked way was taken"));
    const stores = Array.from(
      { length: 10 },
      () => createConfigStore(`${dir}/config.json`, { rename }),
    );
    const created = await Promise.all(stores.map((store) => store.ensure()));
    assertEquals(created.filter((r) => r.created).length, 1);
    assertEquals(JSON.parse(await Deno.readTextFile(`${dir}/config.json`)), defaultConfig());
    assertEquals([...Deno.readDirSync(dir)].map((e) => e.name), ["config.json"]);
  });
});

Deno.test("ensure with a lock beside a missing file goes through the lock and clears a dead one", async () => {
  await withTempDir(async (dir) => {
    const store = createConfigStore(`${dir}/config.json`);
    const dead = JSON.stringify({ pid: 2 ** 22 + 17, startTime: "never", token: "t" });
    await Deno.writeTextFile(`${dir}/config.json.lock`, dead + "\n");
    assertEquals((await store.ensure()).created, true);
    assertEquals(JSON.parse(await Deno.readTextFile(store.path)), defaultConfig());
    assertEquals([...Deno.readDirSync(dir)].map((e) => e.name), ["config.json"]);
  });
});

Deno.test("ensure creates the file when the one another writer linked is gone again (a dangling link)", async () => {
  await withTempDir(async (dir) => {
    const store = createConfigStore(`${dir}/config.json`);
    await Deno.symlink(`${dir}/nowhere.json`, `${dir}/config.json`);
    assertEquals((await store.ensure()).created, true);
    assertEquals(JSON.parse(await Deno.readTextFile(store.path)), defaultConfig());
  });
});

Deno.test("a missing file loads as defaults without being created", async () => {
  await withTempDir(async (dir) => {
    const store = createConfigStore(`${dir}/config.json`);
    assertEquals(await store.load(), defaultConfig());
    assertEquals(await store.exists(), false);
  });
});

Deno.test("100 concurrent updates in one process (two store objects) lose nothing", async () => {
  await withTempDir(async (dir) => {
    const a = createConfigStore(`${dir}/config.json`);
    const b = createConfigStore(`${dir}/config.json`);
    await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        (i % 2 ? a : b).update((c) => {
          c.localPlugins.push(`/p/${i}`);
        })),
    );
    const config = await a.load();
    assertEquals(new Set(config.localPlugins).size, 100);
  });
});

Deno.test("100 writers from 4 processes lose nothing", async () => {
  await withTempDir(async (dir) => {
    const storeUrl = new URL("./config_store.ts", import.meta.url).href;
    const writer = (id: number) => `
      import { createConfigStore } from "${storeUrl}";
      const store = createConfigStore(${JSON.stringify(`${dir}/config.json`)});
      await Promise.all(Array.from({ length: 25 }, (_, i) =>
        store.update((c) => { c.localPlugins.push("/w${id}/" + i); })));
    `;
    const runs = [0, 1, 2, 3].map((id) =>
      new Deno.Command(Deno.execPath(), { args: ["eval", writer(id)], stderr: "piped" }).output()
    );
    for (const out of await Promise.all(runs)) {
      assert(out.success, new TextDecoder().decode(out.stderr));
    }
    const config = await createConfigStore(`${dir}/config.json`).load();
    assertEquals(config.localPlugins.length, 100);
    assertEquals(new Set(config.localPlugins).size, 100);
    const leftovers = [...Deno.readDirSync(dir)].map((e) => e.name).sort();
    assertEquals(leftovers, ["config.json"]);
  });
});

Deno.test("a crash between temp write and rename leaves the old file intact", async () => {
  await withTempDir(async (dir) => {
    const path = `${dir}/config.json`;
    await createConfigStore(path).update((c) => {
      c.port = 9600;
    });
    const before = await Deno.readTextFile(path);
    const crashing = createConfigStore(path, {
      rename: () => Promise.reject(new Error("simulated crash before rename")),
    });
    await assertRejects(
      crashing.update((c) => {
        c.port = 9700;
      }),
      /simulated crash/,
    );
    assertEquals(await Deno.readTextFile(path), before);
    assertEquals([...Deno.readDirSync(dir)].map((e) => e.name), ["config.json"]);
    // A temp file left by a process killed mid-write is ignored by readers.
    await Deno.writeTextFile(`${dir}/.config.json.123.abc.tmp`, '{"port": 1');
    assertEquals((await createConfigStore(path).load()).port, 9600);
  });
});

Deno.test("a corrupt file gives an error naming file, line and column, and is not overwritten", async () => {
  await withTempDir(async (dir) => {
    const path = `${dir}/config.json`;
    const broken = '{\n  "port": 9515,\n  "telemetry": tru\n}\n';
    await Deno.writeTextFile(path, broken);
    const store = createConfigStore(path);
    const error = await store.load().catch((e) => e);
    assert(isUserError(error, UNUSABLE_CONFIG));
    assert(error.message.includes(path), error.message);
    assert(/line 3, column \d+/.test(error.message), error.message);
    assert(error.message.includes("hub config reset --confirm"), error.message);
    await assertRejects(store.update(() => {}), (e: Error) => isUserError(e, UNUSABLE_CONFIG));
    await assertRejects(store.ensure(), (e: Error) => isUserError(e, UNUSABLE_CONFIG));
    assertEquals(await Deno.readTextFile(path), broken);
  });
});

Deno.test("invalid values name the field; unknown keys warn and survive updates", async () => {
  await withTempDir(async (dir) => {
    const path = `${dir}/config.json`;
    await Deno.writeTextFile(path, JSON.stringify({ port: 70000 }));
    const error = await createConfigStore(path).load().catch((e) => e);
    assert(isUserError(error, UNUSABLE_CONFIG) && error.message.includes("port:"), String(error));

    await Deno.writeTextFile(path, JSON.stringify({ port: 9516, myNote: "keep me" }));
    const warnings: string[] = [];
    const store = createConfigStore(path, { onWarning: (m) => warnings.push(m) });
    assertEquals((await store.load()).port, 9516);
    assert(warnings.some((w) => w.includes('"myNote"')), warnings.join());
    await store.update((c) => {
      c.telemetry = false;
    });
    const onDisk = JSON.parse(await Deno.readTextFile(path));
    assertEquals([onDisk.myNote, onDisk.telemetry, onDisk.port], ["keep me", false, 9516]);
  });
});

Deno.test("unknown keys inside permission entries survive a rewrite", async () => {
  await withTempDir(async (dir) => {
    const path = `${dir}/config.json`;
    const entry = { permission: "ask", tools: {}, note: "mine" };
    await Deno.writeTextFile(path, JSON.stringify({ permissions: { demo: entry } }));
    await createConfigStore(path).update((c) => {
      c.port = 9600;
    });
    assertEquals(JSON.parse(await Deno.readTextFile(path)).permissions.demo.note, "mine");
  });
});

Deno.test("an update that produces an invalid config is refused and changes nothing", async () => {
  await withTempDir(async (dir) => {
    const store = createConfigStore(`${dir}/config.json`);
    await store.ensure();
    const before = await Deno.readTextFile(store.path);
    await assertRejects(store.update((c) => {
      c.port = -1;
    }));
    assertEquals(await Deno.readTextFile(store.path), before);
  });
});

Deno.test("remove deletes the file and reports whether it existed", async () => {
  await withTempDir(async (dir) => {
    const store = createConfigStore(`${dir}/config.json`);
    assertEquals(await store.remove(), false);
    await store.ensure();
    assertEquals(await store.remove(), true);
    assertEquals(await store.exists(), false);
  });
});
