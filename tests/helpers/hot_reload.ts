/**
 * Dev mode's hot reload as a plugin author lives it, for the real-browser suite and the benchmark:
 * change the test plugin's `echo` tool, rebuild it with `hub-plugin build` (the build's reload
 * request goes to a dead port, so only the hub's file watcher can notice), then call `echo` in
 * the open tab until it answers with the new behaviour.
 */
import { join } from "node:path";
import { callTool, type E2E, PLUGIN } from "./e2e_fixture.ts";
import { buildPluginDir } from "./test_plugin.ts";

/** The echo handler, as the fixture has it or as `rebuildEcho` last rewrote it. */
const ECHO_HANDLER = /handle: \(input\) => (input|\(\{ \.\.\.input, build: "[^"]*" \}\)),/;

/** Makes `echo` answer `{ ...input, build }` and rebuilds the plugin; the hub is not told. */
export async function rebuildEcho(e2e: E2E, build: string): Promise<void> {
  const source = join(e2e.pluginDir, "src", "index.ts");
  const code = await Deno.readTextFile(source);
  const changed = code.replace(
    ECHO_HANDLER,
    `handle: (input) => ({ ...input, build: ${JSON.stringify(build)} }),`,
  );
  if (changed === code) throw new Error(`the echo handler was not found in ${source}`);
  await Deno.writeTextFile(source, changed);
  await buildPluginDir(e2e.pluginDir, e2e.configDir);
}

/** `echo` in tab `tabId`: its `build` field, or undefined (the old build, or a failed call). */
export async function echoBuild(e2e: E2E, tabId: number): Promise<string | undefined> {
  const reply = await callTool(e2e, `${PLUGIN}__echo`, { text: "hot", tabId });
  if (reply.status !== 200 || reply.body.isError) return undefined;
  return reply.body.structuredContent?.build;
}

/**
 * Rebuilds with `build`, then calls until the tab answers with it. Returns the milliseconds from
 * the end of `hub-plugin build` to that first answer; throws after `timeoutMs`.
 */
export async function timeHotReload(
  e2e: E2E,
  tabId: number,
  build: string,
  timeoutMs = 10_000,
): Promise<number> {
  await rebuildEcho(e2e, build);
  const built = performance.now();
  while ((await echoBuild(e2e, tabId)) !== build) {
    if (performance.now() - built > timeoutMs) {
      throw new Error(`echo never answered from build ${build} within ${timeoutMs} ms`);
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  return performance.now() - built;
}
