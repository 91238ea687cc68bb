/// <reference lib="deno.ns" />
import { assertEquals } from "../../../tests/helpers/assert.ts";
import { sitesView } from "./side_panel.ts";
import type { ServerParams } from "../../../protocol/events.ts";

const sync = (fields: Partial<ServerParams<"sync.full">>): ServerParams<"sync.full"> => ({
  hubVersion: "1.0.0",
  skipPermissions: false,
  skipPermissionsForced: false,
  plugins: [],
  browserTools: [],
  browserPermission: "ask",
  disabledBrowserTools: [],
  ...fields,
});

Deno.test("sitesView: rules sorted by pattern, each with its last use; defaults from the hub", () => {
  const view = sitesView(
    sync({
      sitePermissions: { "bank.com": "off", "*.example.com": "auto", "127.0.0.1:8080": "ask" },
      defaultSitePermission: "off",
      agentTabsOnly: true,
    }),
    { "*.example.com": 5_000, "gone.com": 7_000 },
  );
  assertEquals(view, {
    rules: [
      { pattern: "*.example.com", permission: "auto", lastUsedAt: 5_000 },
      { pattern: "127.0.0.1:8080", permission: "ask" },
      { pattern: "bank.com", permission: "off" },
    ],
    defaultPermission: "off",
    agentTabsOnly: true,
  });
});

Deno.test("sitesView: an older hub without site fields means no rules, ask, and all tabs", () => {
  assertEquals(sitesView(sync({}), {}), {
    rules: [],
    defaultPermission: "ask",
    agentTabsOnly: false,
  });
});
