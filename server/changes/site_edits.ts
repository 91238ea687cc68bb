/**
 * A hand edit of the site fields of config.json (`sitePermissions`, `defaultSitePermission`,
 * `agentTabsOnly`), announced. The hub reads config.json live, but the extension enforces these
 * fields and hears of them only through `sync.full`: without an announcement, a site a person just
 * turned `off` by hand would stay open until the next change. Changes the hub makes itself announce
 * themselves, and so do dev mode's config edits; each announcement is recorded (announced_part.ts,
 * the record dev mode's follower keeps too), so an edit is announced once, whoever sees it first.
 */
import type { HubConfig } from "../../core/config/schema.ts";
import type { LiveFile } from "../../core/files/live_file.ts";
import type { ConfigChanges } from "./config_changes_interface.ts";
import { announcedPart } from "./announced_part.ts";

export interface SiteEditsDeps {
  config: LiveFile<HubConfig>;
  changes: Pick<ConfigChanges, "announce" | "onAnnounce">;
}

/** The fields the extension enforces for site permissions, as one comparable text. */
export function sitePart(config: Readonly<HubConfig>): string {
  const { sitePermissions, defaultSitePermission, agentTabsOnly } = config;
  return JSON.stringify([sitePermissions, defaultSitePermission, agentTabsOnly]);
}

/**
 * Follows announcements; `check()` (called when config.json may have changed) announces when the
 * live config's site fields differ from the last announced ones. Never throws.
 */
export function followSiteEdits(deps: SiteEditsDeps): { check(): void } {
  const announced = announcedPart(sitePart, deps.config.get());
  deps.changes.onAnnounce((_reason, config) => announced.record(config));
  return {
    check() {
      if (announced.differs(deps.config.get())) deps.changes.announce("permissions");
    },
  };
}
