import { DEMO_PLUGIN, delay, withFixture } from "./helpers/pipeline_fixture.ts";

Deno.test("probe cancel", async () => {
  await withFixture({
    plugins: [DEMO_PLUGIN],
    config: { permissions: { demo: { permission: "ask", tools: { other: "auto" } } } },
    tabs: { demo: [{ tabId: 7, url: "https://example.com/" }] },
  }, async (f) => {
    const client = await f.mcp();
    const ac = new AbortController();
    const asked = f.ext.next("confirmation.request");
    const p = client.callTool({ name: "demo__echo", arguments: { text: "x" } }, undefined, { signal: ac.signal }).catch((e: Error) => "rejected: " + e.message);
    await asked;
    ac.abort("user cancelled");
    console.log(await p);
    await delay(100);
    f.ext.onDispatch(() => "hang");
    const ac2 = new AbortController();
    const p2 = client.callTool({ name: "demo__other", arguments: { text: "x" } }, undefined, { signal: ac2.signal }).catch((e: Error) => "rejected: " + e.message);
    await f.ext.waitFor((m) => m.method === "tool.dispatch");
    ac2.abort("user cancelled");
    console.log(await p2);
    await delay(100);
    console.log(JSON.stringify((await f.api("GET", "/audit")).body, null, 1));
    const r = await f.ext.request("ping", {});
    console.log(JSON.stringify(r));
    const r2 = await f.ext.request("tab.syncAll", {plugins: []});
    console.log(JSON.stringify(r2));
  });
});
