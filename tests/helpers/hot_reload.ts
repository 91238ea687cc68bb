/**
 * Dev mode's hot reload as a plugin author lives it, for the real-browser suite and the benchmark:
 * change the test plugin's `echo` tool, rebuild it with `hub-plugin build`, then call `echo` in
 * the open tab until it answers with the new behaviour. The build tells the running hub (the
 * author's flow: against a dev hub it waits for the hub's watcher and says what the hub did), or,
 * with `reachHub: false`, goes to a port where no hub listens (a rebuild by another tool, which
 * only the hub's watcher can notice).
 */
import { join } from "node:path";
import { callTool, type E2E, PLUGIN } from "./e2e_fixture.ts";
import { pluginBuildCommand } from "./test_plugin.ts";

/** The echo handler, as the fixture has it or as `rebuildEcho` last rewrote it. */
const ECHO_HANDLER = /handle: \(input\) => (input|\(\{ \.\.\.input, build: "[^"]*" \}\)),/;

/** When a rebuild's files were written and when `hub-plugin build` ended (performance.now). */
export interface Rebuild {
  /** The build printed "Built …": its files are written. */
  builtAt: number;
  /** The process ended (after telling the hub, or waiting for its watcher). */
  exitedAt: number;
  output: string;
}

/** Runs the build, noting when it printed "Built" and when it exited. */
async function runBuild(e2e: E2E, reachHub: boolean): Promise<Rebuild> {
  const port = reachHub ? e2e.hub.port : undefined;
  const child = pluginBuildCommand(e2e.pluginDir, e2e.configDir, port).spawn();
  const stderr = new Response(child.stderr).text();
  const decoder = new TextDecoder();
  let output = "";
  let builtAt = 0;
  for await (const chunk of child.stdout) {
    output += decoder.decode(chunk, { stream: true });
    if (builtAt === 0 && output.includes("Built ")) builtAt = performance.now();
  }
  const status = await child.status;
  const exitedAt = performance.now();
  if (!status.success || builtAt === 0) {
    throw new Error(`hub-plugin build failed (${status.code}):\n${output}\n${await stderr}`);
  }
  await stderr;
  return { builtAt, exitedAt, output };
}

/** Makes `echo` answer `{ ...input, build }` and rebuilds the plugin. */
export async function rebuildEcho(e2e: E2E, build: string, reachHub = true): Promise<Rebuild> {
  const source = join(e2e.pluginDir, "src", "index.ts");
  const code = await Deno.readTextFile(source);
  const changed = code.replace(
    ECHO_HANDLER,
    `handle: (input) => ({ ...input, build: ${JSON.stringify(build)} }),`,
  );
  if (changed === code) throw new Error(`the echo handler was not found in ${source}`);
  await Deno.writeTextFile(source, changed);
  return await runBuild(e2e, reachHub);
}

/** `echo` in tab `tabId`: its `build` field, or undefined (the old build, or a failed call). */
export async function echoBuild(e2e: E2E, tabId: number): Promise<string | undefined> {
  const reply = await callTool(e2e, `${PLUGIN}__echo`, { text: "hot", tabId });
  if (reply.status !== 200 || reply.body.isError) return undefined;
  return reply.body.structuredContent?.build;
}

/** One hot reload, timed (ms). */
export interface HotReloadTiming {
  /** From the build's files written to the first answer of the new build (the headline). */
  builtToAnswerMs: number;
  /** From the end of the `hub-plugin build` process to that answer. */
  exitToAnswerMs: number;
  /** How long the build waited for the hub after writing its files. */
  buildWaitMs: number;
  output: string;
}

/**
 * Rebuilds with `build`, then calls until the tab answers with it; throws after `timeoutMs`.
 */
export async function timeHotReload(
  e2e: E2E,
  tabId: number,
  build: string,
  options: { reachHub?: boolean; timeoutMs?: number } = {},
): Promise<HotReloadTiming> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const rebuild = await rebuildEcho(e2e, build, options.reachHub ?? true);
  while ((await echoBuild(e2e, tabId)) !== build) {
    if (performance.now() - rebuild.exitedAt > timeoutMs) {
      throw new Error(
        `echo never answered from build ${build} within ${timeoutMs} ms.\n${rebuild.output}`,
      );
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  const answeredAt = performance.now();
  return {
    builtToAnswerMs: answeredAt - rebuild.builtAt,
    exitToAnswerMs: answeredAt - rebuild.exitedAt,
    buildWaitMs: rebuild.exitedAt - rebuild.builtAt,
    output: rebuild.output,
  };
}
