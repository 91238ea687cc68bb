/// <reference lib="deno.ns" />
/**
 * The injector with a fake `executeScript`: the adapter file's completion value becomes the door
 * record, a build is injected once per document, a new build closes the old door, and an adapter
 * that gives no door (an older hub-plugin, or it threw) is refused with a message to rebuild.
 */
import { assert, assertEquals, assertMatch } from "../../../tests/helpers/assert.ts";
import { syncPlugin, withChrome } from "./_test_fixtures.ts";
import type { AdapterDoors, DoorRecord } from "./adapter_doors.ts";
import { createInjector, doorKeyOf } from "./injector.ts";

interface Injection {
  target: { tabId: number; documentIds?: string[] };
  files?: string[];
  func?: { name: string };
  args?: unknown[];
}

function memoryDoors(): AdapterDoors & { records: Map<string, DoorRecord> } {
  const records = new Map<string, DoorRecord>();
  return {
    records,
    get: (tabId, plugin) => Promise.resolve(records.get(`${tabId}/${plugin}`)),
    set: (tabId, plugin, record) => void records.set(`${tabId}/${plugin}`, record),
    delete: (tabId, plugin) => void records.delete(`${tabId}/${plugin}`),
    forgetTab: () => {},
  };
}

/** A page whose adapter files evaluate to `completion(file)`; doors "exist" once injected. */
function fakePage(completion: (file: string) => unknown, documentId = "doc-1") {
  const ran: string[] = [];
  const doors = new Set<string>();
  const executeScript = (injection: Injection) => {
    if (injection.files) {
      ran.push(`file ${injection.files[0]}`);
      const value = completion(injection.files[0]) as { default?: { key?: string } };
      if (value?.default?.key) doors.add(value.default.key);
      return Promise.resolve([{ documentId, result: value }]);
    }
    ran.push(`func ${injection.func?.name}`);
    if (injection.func?.name === "hasDoor") {
      return Promise.resolve([{ documentId, result: doors.has(injection.args![0] as string) }]);
    }
    if (injection.func?.name === "doorClose") doors.delete(injection.args![0] as string);
    return Promise.resolve([{ documentId, result: true }]);
  };
  return { ran, chrome: { scripting: { executeScript } } };
}

/** Door key `n` as the SDK makes them: 32 hex digits in the key, 64 in the secret. */
const keyOf = (plugin: string, n: number) =>
  `__hubAdapter:${plugin}:${String(n).padStart(32, "0")}`;
const secretOf = (n: number) => String(n).padStart(64, "a");
const key = (plugin: string, n: number) => ({
  default: { key: keyOf(plugin, n), secret: secretOf(n), plugin, sdkVersion: "0.1.0" },
});

Deno.test("doorKeyOf takes the completion value of a current adapter only", () => {
  assertEquals(doorKeyOf(key("app", 1), "app")?.secret, secretOf(1));
  assertEquals(doorKeyOf(key("app", 1), "other"), undefined);
  assertEquals(doorKeyOf(undefined, "app"), undefined);
  assertEquals(
    doorKeyOf({ default: { key: "__hubAdapters", secret: "s", plugin: "app" } }, "app"),
    undefined,
  );
});

Deno.test("doorKeyOf refuses a key or secret of any other shape (a huge secret is never kept)", () => {
  const door = (key: string, secret: string) => ({ default: { key, secret, plugin: "app" } });
  const good = key("app", 1).default;
  assertEquals(doorKeyOf(door(good.key, "a".repeat(5_000_000)), "app"), undefined);
  assertEquals(doorKeyOf(door(good.key, "A".repeat(64)), "app"), undefined);
  assertEquals(doorKeyOf(door(good.key, "a".repeat(63)), "app"), undefined);
  assertEquals(doorKeyOf(door(`${good.key}0`, good.secret), "app"), undefined);
  assertEquals(
    doorKeyOf(door(`__hubAdapter:app:${"g".repeat(32)}`, good.secret), "app"),
    undefined,
  );
  assertEquals(doorKeyOf(door(good.key, good.secret), "app")?.key, good.key);
});

Deno.test("a build goes into a document once; its door is recorded and reported", async () => {
  const page = fakePage(() => key("app", 1));
  const doors = memoryDoors();
  const found: string[] = [];
  await withChrome(page.chrome, async () => {
    const injector = createInjector(doors, (_tab, _plugin, door) => found.push(door.key));
    assertEquals(await injector.ensure(4, syncPlugin("app")), true);
    assertEquals(await injector.ensure(4, syncPlugin("app")), false);
  });
  assertEquals(page.ran.filter((r) => r.startsWith("file")), ["file adapters/app-abc.js"]);
  assertEquals(doors.records.get("4/app"), {
    documentId: "doc-1",
    hash: "abc",
    key: keyOf("app", 1),
    secret: secretOf(1),
  });
  assertEquals(found, [keyOf("app", 1), keyOf("app", 1)]);
});

Deno.test("a new build gets a new door and the old one is closed; remove closes it too", async () => {
  let n = 0;
  const page = fakePage(() => key("app", ++n));
  const doors = memoryDoors();
  await withChrome(page.chrome, async () => {
    const injector = createInjector(doors);
    await injector.ensure(4, syncPlugin("app"));
    await injector.ensure(4, syncPlugin("app", { adapterHash: "def", adapterFile: "app-def.js" }));
    assertEquals(doors.records.get("4/app")?.key, keyOf("app", 2));
    await injector.remove(4, "app");
    assertEquals(doors.records.get("4/app"), undefined);
  });
  assertEquals(page.ran.filter((r) => r === "func doorClose").length, 2);
});

Deno.test("an adapter that gives no door is refused with a message to rebuild it", async () => {
  const page = fakePage(() => undefined);
  await withChrome(page.chrome, async () => {
    const injector = createInjector(memoryDoors());
    const error = await injector.ensure(4, syncPlugin("app")).then(() => null, (e) => e);
    assert(error instanceof Error);
    assertMatch(error.message, /did not register in tab 4.*Rebuild it/s);
  });
});

Deno.test("a plugin that is off, or off or rebuilt by the time its turn comes, is never injected", async () => {
  const page = fakePage(() => key("app", 1));
  const store = new Map([["app", syncPlugin("app")]]);
  await withChrome(page.chrome, async () => {
    const injector = createInjector(memoryDoors(), () => {}, (name) => store.get(name));
    const off = await injector.ensure(4, syncPlugin("app", { enabled: false })).catch((e) => e);
    assertMatch(String(off), /not injecting the app adapter: the plugin is off/);
    store.set("app", syncPlugin("app", { enabled: false }));
    assert(await injector.ensure(4, syncPlugin("app")).then(() => false, () => true));
    store.set("app", syncPlugin("app", { adapterHash: "newer" }));
    assert(await injector.ensure(4, syncPlugin("app")).then(() => false, () => true));
    store.delete("app");
    assert(await injector.ensure(4, syncPlugin("app")).then(() => false, () => true));
  });
  assertEquals(page.ran.filter((r) => r.startsWith("file")), []);
});
