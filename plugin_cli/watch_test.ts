import { assertEquals } from "../tests/helpers/assert.ts";
import { triggersRebuild } from "./watch.ts";

Deno.test("source changes trigger a rebuild; build output, deps, git and README do not", () => {
  const dir = "/p";
  assertEquals(triggersRebuild(dir, "/p/src/index.ts"), true);
  assertEquals(triggersRebuild(dir, "/p/package.json"), true);
  assertEquals(triggersRebuild(dir, "/p/dist/tools.json"), false);
  assertEquals(triggersRebuild(dir, "/p/node_modules/x/index.js"), false);
  assertEquals(triggersRebuild(dir, "/p/.git/index"), false);
  assertEquals(triggersRebuild(dir, "/p/README.md"), false);
  assertEquals(triggersRebuild(dir, "/p/src/index.ts~"), false);
  assertEquals(triggersRebuild(dir, "/p/src/.index.ts.swp"), false);
});
