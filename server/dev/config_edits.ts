/**
 * Dev mode's answer to a change of config.json on disk. The file is compared with two records,
 * never with a fresh read of itself:
 *
 * - its discovery part (the plugin folders, their settings and the allowed folders) with the
 *   config the last full discovery read (`discoveredWith`): when they differ, only a reload
 *   (rediscovery and settings, then `sync.full` and `tools/list_changed`) applies it;
 * - the rest (permissions, disabled browser tools, the skip switch, the site fields…), which the
 *   hub reads live, with the config last announced (../changes/announced_part.ts, the record the
 *   site fields' follower in every mode keeps too): when it differs, an announcement (`sync.full`
 *   and `tools/list_changed`) tells the extension and MCP clients.
 *
 * The hub's own writes (a permission from the side panel, a review mark) announce themselves, so
 * they are recognised and not applied again; an announcement never marks the discovery part
 * applied, so a hand edit of `localPlugins` that lands while a plugin reloads is still rediscovered.
 * A broken edit is rejected with the reason in the log while the last good config stays in force.
 */
import { parseConfig, readConfigText } from "../../core/config/config_store.ts";
import type { HubConfig } from "../../core/config/schema.ts";
import type { Logger } from "../log/logger_interface.ts";
import { announcedPart } from "../changes/announced_part.ts";

export type ConfigEditOutcome = "applied" | "unchanged" | "rejected";

export interface ConfigEditsDeps {
  path: string;
  /** The config the last full discovery read; undefined before the startup discovery. */
  discoveredWith(): Readonly<HubConfig> | undefined;
  /** Applies the file: re-reads config and rediscovers plugins; throws when that fails. */
  reload(): Promise<unknown>;
  /** Tells the extension and MCP clients about changed permissions (it calls `announced`). */
  announce(): void;
  logger: Logger;
}

export interface ConfigEdits {
  /** Records `config` as the one the hub just announced (called on every announcement). */
  announced(config: HubConfig): void;
  /** Reads config.json and applies or rejects it. Never throws. */
  check(): Promise<ConfigEditOutcome>;
}

/** The fields a reload reads (discover.ts, allowed_roots.ts, the registry's settings). */
export function discoveryPart(config: Readonly<HubConfig>): string {
  const { localPlugins, localPluginDirs, additionalAllowedDirectories, settings } = config;
  return JSON.stringify([localPlugins, localPluginDirs, additionalAllowedDirectories, settings]);
}

export function createConfigEdits(deps: ConfigEditsDeps): ConfigEdits {
  const announced = announcedPart((config) => JSON.stringify(config), deps.discoveredWith());

  function reject(reason: string): ConfigEditOutcome {
    deps.logger.error(
      `Dev mode: rejected the edit of ${deps.path}: ${reason} The last good config stays in ` +
        "force; fix the file and save it again.",
    );
    return "rejected";
  }

  async function read(): Promise<HubConfig | string> {
    try {
      const text = await readConfigText(deps.path); // bounded: a FIFO or /dev/zero is refused
      if (text === undefined) return "the file was removed.";
      return (await parseConfig(deps.path, text)).config;
    } catch (error) {
      return (error as Error).message;
    }
  }

  return {
    announced: (config) => announced.record(config),
    async check() {
      const config = await read();
      if (typeof config === "string") return reject(config);
      const discovered = deps.discoveredWith();
      if (discovered === undefined || discoveryPart(config) !== discoveryPart(discovered)) {
        try {
          await deps.reload();
        } catch (error) {
          return reject((error as Error).message);
        }
      } else if (announced.differs(config)) {
        deps.announce();
      } else {
        return "unchanged";
      }
      deps.logger.info(`Dev mode: applied the edit of ${deps.path}`);
      return "applied";
    },
  };
}
