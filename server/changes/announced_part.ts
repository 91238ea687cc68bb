/**
 * The part of the config the hub last announced (`sync.full` and `tools/list_changed`), kept to
 * tell whether a config.json read since differs from it. The one record behind both hand-edit
 * followers: site_edits.ts (the site fields, in every mode) and dev/config_edits.ts (every live
 * field, in dev mode). Each records every announcement, so an edit is announced once, whoever
 * sees it first.
 */
import type { HubConfig } from "../../core/config/schema.ts";

export interface AnnouncedPart {
  /** Records `config` as the one the hub just announced. */
  record(config: Readonly<HubConfig>): void;
  /** Whether `config`'s part differs from the last announced one (always, before any). */
  differs(config: Readonly<HubConfig>): boolean;
}

/** `part` turns a config into comparable text; `initial`: the config in force at the start. */
export function announcedPart(
  part: (config: Readonly<HubConfig>) => string,
  initial?: Readonly<HubConfig>,
): AnnouncedPart {
  let announced = initial && part(initial);
  return {
    record(config) {
      announced = part(config);
    },
    differs: (config) => announced === undefined || part(config) !== announced,
  };
}
