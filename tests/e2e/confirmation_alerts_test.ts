/**
 * Confirmations while no side panel is open: the toolbar badge counts the requests waiting, each
 * one shows a system notification, opening the panel takes the notifications away (the panel
 * shows everything), and answering there clears the badge. Real hub, real Chromium.
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { callTool, e2eTest, PLUGIN } from "../helpers/e2e_fixture.ts";
import { eventually } from "../helpers/hub_api.ts";
import { alertsBecome, openPanel } from "../helpers/panel_page.ts";
import { unmarked } from "../helpers/page_content.ts";

e2eTest(
  import.meta.url,
  "confirmations with the panel closed: badge count, notifications, answered in the panel",
  { permission: "ask" },
  async (_t, { e2e }) => {
    await e2e.open("/");
    await e2e.waitForTabState("ready");
    const worker = await e2e.browser.serviceWorker();
    await alertsBecome(worker, "", 0);

    const first = callTool(e2e, `${PLUGIN}__echo`, { text: "one" });
    const second = callTool(e2e, `${PLUGIN}__echo`, { text: "two" });
    const shown = await alertsBecome(worker, "2", 2);
    assert(
      shown.notifications.every((id) => id.startsWith("hub-confirm:")),
      shown.notifications.join(),
    );

    const panel = await openPanel(e2e);
    await alertsBecome(worker, "2", 0); // the panel shows them; the notifications go
    const cards = panel.getByTestId("confirmation");
    assertEquals(await cards.count(), 2);
    await cards.first().getByTestId("allow").click();
    await eventually(async () => (await cards.count()) === 1, () => "one card should remain");
    await cards.first().getByTestId("deny").click();
    await alertsBecome(worker, "", 0);

    const [allowed, denied] = [await first, await second];
    assertEquals(allowed.status, 200, JSON.stringify(allowed.body));
    assertEquals(unmarked(allowed.body).structuredContent, { text: "one" });
    assertEquals(denied.status, 403, JSON.stringify(denied.body));
    assertEquals(denied.body.structuredContent.error.code, "PERMISSION_DENIED");
  },
);
