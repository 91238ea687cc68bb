/** `hub-plugin build [-w]`: build, register in localPlugins on first build, reload the hub. */
import { UserError } from "../server/user_error.ts";
import { buildPlugin, type BuildResult } from "./build.ts";
import { describeOutcome, registerLocalPlugin, reloadHub } from "./hub_link.ts";
import { watchAndRebuild } from "./watch.ts";

function summary(result: BuildResult): string {
  const { manifest } = result.project;
  const kb = (result.adapterBytes / 1024).toFixed(1);
  return `Built ${manifest.name} ${manifest.version}: ${result.tools.length} tool` +
    `${result.tools.length === 1 ? "" : "s"}, adapter ${kb} KB, in ${result.durationMs} ms.`;
}

async function buildOnce(dir: string): Promise<BuildResult> {
  const result = await buildPlugin(dir);
  console.log(summary(result));
  if (await registerLocalPlugin(dir)) {
    console.log(`Registered ${dir} in localPlugins (first build).`);
  }
  console.log(describeOutcome(await reloadHub(), result.project.manifest.name, dir));
  return result;
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
  const attempt = async () => {
    try {
      await buildOnce(dir);
    } catch (error) {
      if (!(error instanceof UserError)) throw error;
      console.error(`error: ${error.message}`);
    }
  };
  await attempt();
  console.log(`Watching ${dir} for changes (Ctrl-C to stop).`);
  await watchAndRebuild(dir, attempt, signal);
}
