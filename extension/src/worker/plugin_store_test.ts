/// <reference lib="deno.ns" />
import { assert, assertEquals } from "../../../tests/helpers/assert.ts";
import type { SyncPlugin } from "../../../protocol/events.ts";
import { syncPlugin } from "./_test_fixtures.ts";
import { createPluginStore, pluginMatches } from "./plugin_store.ts";

const plugin = syncPlugin;

const names = (plugins: SyncPlugin[]) => plugins.map((p) => p.name).sort();

Deno.test("replace() takes the full list and returns the names that are gone", () => {
  const store = createPluginStore();
  assertEquals(store.replace([plugin("a"), plugin("b"), plugin("c")]), []);
  assertEquals(names(store.all()), ["a", "b", "c"]);

  const newB = plugin("b", { version: "2.0.0" });
  assertEquals(store.replace([newB, plugin("d")]).sort(), ["a", "c"]);
  assertEquals(names(store.all()), ["b", "d"]);
  assertEquals(store.get("b")?.version, "2.0.0");
  assertEquals(store.get("a"), undefined);

  assertEquals(store.replace([]).sort(), ["b", "d"]);
  assertEquals(store.all(), []);
});

Deno.test("set() adds or replaces one plugin; remove() says whether it was there", () => {
  const store = createPluginStore();
  store.set(plugin("a"));
  store.set(plugin("b"));
  store.set(plugin("a", { adapterHash: "new" }));
  assertEquals(names(store.all()), ["a", "b"]);
  assertEquals(store.get("a")?.adapterHash, "new");

  assertEquals(store.remove("a"), true);
  assertEquals(store.remove("a"), false);
  assertEquals(store.remove("never"), false);
  assertEquals(names(store.all()), ["b"]);
  // What set() added counts for the next replace() too.
  assertEquals(store.replace([plugin("c")]), ["b"]);
});

Deno.test("matching() honours urlPatterns, on any port when the pattern names none", () => {
  const store = createPluginStore();
  store.replace([
    plugin("local", { urlPatterns: ["http://127.0.0.1/*", "http://localhost/*"] }),
    plugin("example", { urlPatterns: ["https://*.example.com/app/*"] }),
    plugin("pinned", { urlPatterns: ["http://127.0.0.1:9000/*"] }),
  ]);
  assertEquals(names(store.matching("http://127.0.0.1:8123/page")), ["local"]);
  assertEquals(names(store.matching("http://localhost/")), ["local"]);
  assertEquals(names(store.matching("http://127.0.0.1:9000/x")), ["local", "pinned"]);
  assertEquals(names(store.matching("https://www.example.com/app/inbox")), ["example"]);
  assertEquals(names(store.matching("https://example.com/app/")), ["example"]);
  assertEquals(store.matching("https://example.com/other"), []);
  assertEquals(store.matching("https://127.0.0.1/"), []); // wrong scheme
  assertEquals(store.matching("chrome://newtab/"), []);
  assertEquals(store.matching("not a url"), []);
  assertEquals(store.matching(undefined), []);
});

Deno.test("matching() leaves out URLs that an excludePattern matches", () => {
  const store = createPluginStore();
  const app = plugin("app", {
    urlPatterns: ["http://127.0.0.1/*"],
    excludePatterns: ["http://127.0.0.1/admin/*", "*://*/*?logout=*"],
  });
  store.set(app);
  assertEquals(names(store.matching("http://127.0.0.1:8000/inbox")), ["app"]);
  assertEquals(store.matching("http://127.0.0.1:8000/admin/users"), []);
  assertEquals(store.matching("http://127.0.0.1:8000/inbox?logout=1"), []);
  assert(pluginMatches(app, "http://127.0.0.1/inbox"));
  assert(!pluginMatches(app, "http://127.0.0.1/admin/"));
  assert(!pluginMatches(app, undefined));
});

Deno.test("matching() follows the current set of plugins", () => {
  const store = createPluginStore();
  const url = "http://127.0.0.1:8000/";
  assertEquals(store.matching(url), []);
  store.set(plugin("a"));
  assertEquals(names(store.matching(url)), ["a"]);
  store.set(plugin("a", { urlPatterns: ["https://elsewhere.test/*"] }));
  assertEquals(store.matching(url), []);
  store.set(plugin("b"));
  store.remove("b");
  assertEquals(store.matching(url), []);
});

Deno.test("an off plugin never matches a tab; turning it off asks for its adapter to leave", () => {
  const store = createPluginStore();
  const url = "http://127.0.0.1/page";
  // A plugin first seen off (a new install, or a restarted worker): its adapter must leave.
  assertEquals(store.replace([plugin("on"), plugin("off", { enabled: false })]), ["off"]);
  assertEquals(names(store.matching(url)), ["on"]);
  // Staying off asks nothing more; turning one on makes it match.
  assertEquals(store.replace([plugin("on"), plugin("off", { enabled: false })]), []);
  assertEquals(store.replace([plugin("on"), plugin("off")]), []);
  assertEquals(names(store.matching(url)), ["off", "on"]);
  // Turning it off again, by a full sync or a single update, asks for removal.
  assertEquals(store.replace([plugin("on"), plugin("off", { enabled: false })]), ["off"]);
  assertEquals(names(store.matching(url)), ["on"]);
  assertEquals(store.set(plugin("on", { enabled: false })), true);
  assertEquals(store.set(plugin("on", { enabled: false })), false);
  assertEquals(store.matching(url), []);
  // A hub that does not say whether a plugin is enabled gets it treated as off.
  const unsaid = plugin("old") as Partial<SyncPlugin>;
  delete unsaid.enabled;
  store.replace([unsaid as SyncPlugin]);
  assertEquals(store.matching(url), []);
});
