import { assertEquals } from "./helpers/assert.ts";
import { DEMO_PLUGIN, withFixture } from "./helpers/pipeline_fixture.ts";

Deno.test("smoke", async () => {
  await withFixture({
    plugins: [DEMO_PLUGIN],
    config: { permissions: { demo: { permission: "auto" } } },
    tabs: { demo: [{ tabId: 5, url: "https://example.com/a" }] },
  }, async (f) => {
    const r = await f.call("demo__echo", { text: "hi" });
    console.log(r.status, JSON.stringify(r.body));
    const c = await f.mcp();
    const res = await c.callTool({ name: "demo__echo", arguments: { text: "x", tabId: 5 } });
    console.log(JSON.stringify(res));
    console.log(JSON.stringify(await f.readConfig()));
    assertEquals(r.status, 200);
  });
});
