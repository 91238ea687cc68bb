/**
 * `hub-plugin build [-w]`: build, register in localPlugins on first build, and tell a running hub
 * (a reload, or in dev mode its own file watcher: tell_hub.ts `tellHub`).
 */
import { UserError } from "../core/cli/user_error.ts";
import { buildPlugin, type BuildResult } from "./build.ts";
import {
  describeOutcome,
  registerLocalPlugin,
  reloadHub,
  type ReloadOutcome,
  tellHub,
} from "./tell_hub.ts";
import { watchAndRebuild } from "./watch.ts";

function summary(result: BuildResult): string {
  const { manifest } = result.project;
  const kb = (result.adapterBytes / 1024).toFixed(1);
  return `Built ${manifest.name} ${manifest.version}: ${result.tools.length} tool` +
    `${result.tools.length === 1 ? "" : "s"}, adapter ${kb} KB, in ${result.durationMs} ms.`;
}

/**
 * What watching does with a build that failed: a user error (a broken package.json, or a file that
 * is unusable, such as a config.json that is a folder) is printed as one line and watching goes on;
 * anything else is a bug in hub-plugin and ends the watch.
 */
export function reportWatchFailure(error: unknown): void {
  if (!(error instanceof UserError)) throw error;
  console.error(`error: ${error.message}`);
}

async function buildOnce(dir: string): Promise<{ outcome: ReloadOutcome; name: string }> {
  const result = await buildPlugin(dir);
  const builtAt = Date.now(); // a dev-mode hub's watcher reports on this build after it
  for (const warning of result.warnings) console.error(`warning: ${warning}`);
  console.log(summary(result));
  if (await registerLocalPlugin(dir)) {
    console.log(`Registered ${dir} in localPlugins (first build).`);
  }
  const name = result.project.manifest.name;
  const outcome = await tellHub(name, builtAt);
  console.log(describeOutcome(outcome, name, dir));
  return { outcome, name };
}

export async function buildCommand(
  dir: string,
  options: { watch?: boolean },
  signal?: AbortSignal,
): Promise<void> {
  if (!options.watch) {
    await buildOnce(dir);
    return;
  }
  // The hub allows 10 reloads a minute; after a refusal, one retry once the window has passed.
  let retry: ReturnType<typeof setTimeout> | undefined;
  const attempt = async () => {
    if (retry !== undefined) clearTimeout(retry);
    retry = undefined;
    try {
      const { outcome, name } = await buildOnce(dir);
      if (outcome.kind === "rate-limited" && !signal?.aborted) {
        retry = setTimeout(async () => {
          retry = undefined;
          const next = await reloadHub();
          console.log(`Retried the reload: ${describeOutcome(next, name, dir)}`);
        }, outcome.retryAfterSeconds * 1000);
      }
    } catch (error) {
      reportWatchFailure(error);
    }
  };
  await attempt();
  console.log(`Watching ${dir} for changes (Ctrl-C to stop).`);
  await watchAndRebuild(dir, attempt, signal);
  if (retry !== undefined) clearTimeout(retry);
}
