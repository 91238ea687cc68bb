/**
 * The official MCP SDK client drives browser_snapshot and refs (issue 29's acceptance): on
 * `/snap/cross` (a cross-origin "Payment" iframe from `localhost` while the page is on 127.0.0.1)
 * it takes a snapshot, clicks "Pay" by the ref it read in the outline, takes a snapshot with
 * `since`, and reads the result with browser_get_page_text; once over `/mcp`, once through
 * `hub_call` on `/mcp/gateway`. The text content of a snapshot is the outline itself (plain text
 * whose first line is `# <title> — <url>`), not JSON; so is what `hub tool call browser_snapshot`
 * prints.
 */
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { e2eTest } from "../helpers/e2e_fixture.ts";
import { eventually } from "../helpers/hub_api.ts";
import { type Client, connectMcp } from "../helpers/mcp_client.ts";
import { runHub } from "../helpers/hub_process.ts";
import { tabIdOf } from "../helpers/tool_replies.ts";
import { unmarked } from "../helpers/page_content.ts";

type Call = (tool: string, args: Record<string, unknown>) => Promise<{
  text: string;
  value: Record<string, unknown>;
}>;

/** A tool call through `client`, directly (`/mcp`) or through hub_call (`/mcp/gateway`). */
function caller(client: Client, gateway: boolean): Call {
  return async (tool, args) => {
    // The snapshot's page-content marker is checked whole and taken off (page_content_test.ts
    // checks it is there).
    const result = unmarked(
      gateway
        ? await client.callTool({ name: "hub_call", arguments: { tool, arguments: args } })
        : await client.callTool({ name: tool, arguments: args }),
    );
    const shown = JSON.stringify(result).slice(0, 2000);
    assert(!result.isError, `${tool}: ${shown}`);
    const content = result.content as { type: string; text: string }[];
    assertEquals(content.length, 1, shown);
    assertEquals(content[0].type, "text", shown);
    return { text: content[0].text, value: result.structuredContent as Record<string, unknown> };
  };
}

e2eTest(import.meta.url, "the MCP SDK client snapshots, clicks by ref in a cross-origin frame", {
  config: {
    permissions: { "test-app": { permission: "auto" }, browser: { permission: "auto" } },
  },
}, async (t, { e2e, mcp }) => {
  const page = await e2e.open("/snap/cross");
  const tabId = await tabIdOf(e2e, page);
  await eventually(
    async () => {
      const frame = page.frames().find((f) => f.url().includes("localhost"));
      return !!frame && (await frame.$("#pay")) !== null;
    },
    () => `the Payment frame never loaded: ${page.frames().map((f) => f.url())}`,
  );
  const port = String(e2e.hub.port);
  const gateway = await connectMcp(e2e.hub.url, e2e.hub.secret, "/mcp/gateway");
  try {
    for (
      const [path, call] of [
        ["/mcp", caller(mcp, false)],
        ["/mcp/gateway", caller(gateway, true)],
      ] as const
    ) {
      await t.step(`${path}: snapshot, click by ref, snapshot since, read`, async () => {
        // Payments so far (the other pass may have clicked): this pass's click makes one more.
        const clicks = Number(await page.textContent("#count")) + 1;
        const first = await call("browser_snapshot", { tabId });
        assertEquals(first.text.split("\n")[0], `# Checkout — ${page.url()}`);
        assert(!first.text.trimStart().startsWith("{"), "plain text, not JSON");
        assert(first.text.startsWith(first.value.text as string), "the text is the outline");
        // A client that shows the agent only the text still gives it the snapshotId.
        const id = /^# snapshotId (s\d+): pass since/m.exec(first.text)?.[1];
        assertEquals(id, first.value.snapshotId, first.text);
        assertMatch(first.text, /^- iframe "Payment" \[ref=f\d+\]$/m);
        // The agent reads the ref off the outline, as it would.
        const ref = /^ +- button "Pay" \[ref=(f\d+e\d+)\]$/m.exec(first.text)?.[1];
        assert(ref, `no Pay button with a frame ref in:\n${first.text}`);

        const clicked = await call("browser_click_element", { tabId, ref });
        assertEquals(clicked.value.clicked, true);
        await eventually(
          async () => (await page.textContent("#count")) === String(clicks),
          async () => `the top page counted ${await page.textContent("#count")} payments`,
        );

        const since = await call("browser_snapshot", { tabId, since: id });
        const lines = since.text.split("\n");
        assertEquals(lines[0], `# Checkout — ${page.url()}`);
        assert(lines.includes(`# changes since ${first.value.snapshotId}`), since.text);
        assertMatch(since.text, new RegExp(`^[+~] .*Paid ${clicks} times`, "m"));
        assertMatch(since.text, new RegExp(`^[+~] .*Payments: ${clicks}`, "m"));
        assert(!/^[+~-] .*button "Pay"/m.test(since.text), `Pay did not change:\n${since.text}`);

        const read = await call("browser_get_page_text", { tabId });
        const text = read.value.text as string;
        assert(text.includes(`Paid ${clicks} times`), text);
        assert(text.includes(`Payments: ${clicks}`), text);
      });
    }
    await t.step("hub tool call browser_snapshot prints the outline itself", async () => {
      const cli = await runHub(
        ["tool", "call", "browser_snapshot", JSON.stringify({ tabId }), "--port", port],
        { configDir: e2e.configDir },
      );
      assertEquals(cli.code, 0, `stdout:\n${cli.stdout}\nstderr:\n${cli.stderr}`);
      assertEquals(cli.stdout.split("\n")[0], `# Checkout — ${page.url()}`);
      assertMatch(cli.stdout, /^ +- button "Pay" \[ref=f\d+e\d+\]$/m);
    });
  } finally {
    await gateway.close().catch(() => {});
    await page.close();
  }
});
