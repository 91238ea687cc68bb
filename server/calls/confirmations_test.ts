/**
 * Confirmations over a fake link: a site question goes out as `confirmation.request` with `site`
 * (the side panel shows "Allow agents to use <site>?"), the answer comes back by id, and a timeout
 * names what nobody answered.
 */
import { assertEquals, assertRejects } from "../../tests/helpers/assert.ts";
import type { ExtensionRequests } from "./extension_requests.ts";
import { createConfirmations } from "./confirmations.ts";

function fakeLink() {
  const sent: { method: string; params: Record<string, unknown> }[] = [];
  const link = {
    isConnected: () => true,
    request: () => Promise.reject(new Error("unused")),
    notify(method: string, params: unknown) {
      sent.push({ method, params: params as Record<string, unknown> });
      return true;
    },
  } as unknown as ExtensionRequests;
  return { link, sent };
}

const REQUEST = { id: "c1", tool: "browser_click_element", plugin: "browser", parameters: {} };

Deno.test("a site question carries the site in confirmation.request; Always comes back", async () => {
  const { link, sent } = fakeLink();
  const confirmations = createConfirmations(link, { clock: () => 1000, timeoutMs: 60_000 });
  const waiting = confirmations.ask({ ...REQUEST, site: "app.example.com" });
  assertEquals(sent, [{
    method: "confirmation.request",
    params: { ...REQUEST, site: "app.example.com", expiresAt: 61_000 },
  }]);
  confirmations.respond({ id: "c1", decision: "allow", alwaysAllow: true });
  assertEquals(await waiting, { allow: true, alwaysAllow: true });
});

Deno.test("a tool question has no site field", () => {
  const { link, sent } = fakeLink();
  const confirmations = createConfirmations(link, { timeoutMs: 60_000 });
  const waiting = confirmations.ask(REQUEST);
  assertEquals("site" in sent[0].params, false);
  confirmations.respond({ id: "c1", decision: "deny" });
  return waiting.then((d) => assertEquals(d, { allow: false, alwaysAllow: false }));
});

Deno.test("an unanswered site question times out naming the site and the tool", async () => {
  const { link } = fakeLink();
  const confirmations = createConfirmations(link, { timeoutMs: 1 });
  await assertRejects(
    () => confirmations.ask({ ...REQUEST, site: "a.example" }),
    (error: Error) =>
      error.message.startsWith(
        "Nobody answered the confirmation for agents using a.example (browser_click_element)",
      ),
  );
});
