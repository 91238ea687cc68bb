/**
 * Dev mode's answer to a change of config.json on disk: a valid edit that differs from the config
 * last applied is applied through the reload path (rediscovery, settings, `sync.full` to the
 * extension, `tools/list_changed` to MCP clients); a broken edit is rejected with the reason in the
 * log while the last good config stays in force. The hub's own writes (a permission from the side
 * panel, a review mark) announce themselves, and `markApplied` then records them, so they are not
 * applied a second time.
 */
import { parseConfigText } from "../../core/config/config_store.ts";
import type { HubConfig } from "../../core/config/schema.ts";
import type { Logger } from "../log/logger.ts";

export type ConfigEditOutcome = "applied" | "unchanged" | "rejected";

export interface ConfigEditsDeps {
  path: string;
  /** The config in force (after an announcement: the one just applied). */
  current(): HubConfig;
  /** Applies the file: re-reads config and rediscovers plugins; throws when that fails. */
  reload(): Promise<unknown>;
  logger: Logger;
}

export interface ConfigEdits {
  /** Records the config in force as applied (called on every announcement). */
  markApplied(): void;
  /** Reads config.json and applies or rejects it. Never throws. */
  check(): Promise<ConfigEditOutcome>;
}

export function createConfigEdits(deps: ConfigEditsDeps): ConfigEdits {
  const key = (config: HubConfig) => JSON.stringify(config);
  let applied = key(deps.current());

  function reject(reason: string): ConfigEditOutcome {
    deps.logger.error(
      `Dev mode: rejected the edit of ${deps.path}: ${reason} The last good config stays in ` +
        "force; fix the file and save it again.",
    );
    return "rejected";
  }

  return {
    markApplied() {
      applied = key(deps.current());
    },
    async check() {
      let config: HubConfig;
      try {
        config = parseConfigText(deps.path, await Deno.readTextFile(deps.path)).config;
      } catch (error) {
        const message = (error as Error).message;
        return reject(error instanceof Deno.errors.NotFound ? "the file was removed." : message);
      }
      if (key(config) === applied) return "unchanged";
      try {
        await deps.reload();
      } catch (error) {
        return reject((error as Error).message);
      }
      applied = key(deps.current()); // as reloaded (a review reset may have written it again)
      deps.logger.info(`Dev mode: applied the edit of ${deps.path}`);
      return "applied";
    },
  };
}
