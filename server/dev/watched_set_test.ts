import { assertEquals } from "../../tests/helpers/assert.ts";
import { CONFIG, routeEvent, type Watched } from "./watched_set.ts";

const watched: Watched = new Map([
  ["/p/a", "/p/a/dist"], // built: its dist/ is watched
  ["/p/b", "/p/b"], // not built yet: the folder is watched for dist/ to appear
]);
const route = (...paths: string[]) => {
  const routed = routeEvent({ kind: "modify", paths }, "/c/config.json", watched);
  return { keys: [...routed.keys].sort(), renew: routed.renew };
};

Deno.test("events route to config.json and to the plugin whose dist/ changed", () => {
  assertEquals(route("/c/config.json"), { keys: [CONFIG], renew: false });
  assertEquals(route("/c/server.log", "/c/config.json.lock"), { keys: [], renew: false });
  assertEquals(route("/p/a/dist/tools.json"), { keys: ["/p/a"], renew: false });
  assertEquals(route("/p/a/src/index.ts", "/p/b/package.json"), { keys: [], renew: false });
});

Deno.test("a plugin's dist/ itself coming or going renews the watch", () => {
  assertEquals(route("/p/a/dist"), { keys: ["/p/a"], renew: true }, "removed");
  assertEquals(route("/p/b/dist"), { keys: ["/p/b"], renew: true }, "created");
  assertEquals(route("/p/b/dist/tools.json"), { keys: [], renew: false }, "not watched yet");
});
