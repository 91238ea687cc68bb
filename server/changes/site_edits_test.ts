import { assertEquals } from "../../tests/helpers/assert.ts";
import { defaultConfig, type HubConfig } from "../../core/config/schema.ts";
import type { AnnounceReason } from "./config_changes_interface.ts";
import { followSiteEdits } from "./site_edits.ts";

/** A live config the test edits, and changes whose announcements carry the config as it is. */
function setup() {
  let config: HubConfig = defaultConfig();
  const announced: AnnounceReason[] = [];
  const listeners: ((reason: AnnounceReason, config: HubConfig) => void)[] = [];
  const changes = {
    announce(reason: AnnounceReason) {
      announced.push(reason);
      for (const listener of listeners) listener(reason, config);
    },
    onAnnounce: (listener: (reason: AnnounceReason, config: HubConfig) => void) =>
      void listeners.push(listener),
  };
  const edits = followSiteEdits({ config: { get: () => config, refresh: () => config }, changes });
  const edit = (fields: Partial<HubConfig>) => (config = { ...config, ...fields });
  return { edits, edit, changes, announced };
}

Deno.test("a hand edit of a site field is announced once", () => {
  const s = setup();
  s.edits.check();
  assertEquals(s.announced, [], "nothing changed");
  s.edit({ sitePermissions: { "bank.example": "off" } });
  s.edits.check();
  s.edits.check();
  assertEquals(s.announced, ["permissions"]);
  s.edit({ defaultSitePermission: "off" });
  s.edits.check();
  s.edit({ agentTabsOnly: true });
  s.edits.check();
  assertEquals(s.announced.length, 3);
});

Deno.test("an edit already announced (by the hub's own write or dev mode) is not announced again", () => {
  const s = setup();
  s.edit({ sitePermissions: { "bank.example": "off" } });
  s.changes.announce("permissions");
  s.edits.check();
  assertEquals(s.announced, ["permissions"]);
});

Deno.test("edits of other fields are left to the hub's other paths", () => {
  const s = setup();
  s.edit({ port: 4000, debugger: "off", skipPermissions: true });
  s.edits.check();
  assertEquals(s.announced, []);
});
