/**
 * Builds the test plugin (tests/fixtures/plugins/test-app) the way a plugin author does: a copy of
 * the fixture in a temp dir, then `hub-plugin build --dir <copy>` as a subprocess under the
 * hub-plugin permission flags, with a temp HUB_CONFIG_DIR. The fixture itself never gets a `dist/`.
 */
import { join } from "node:path";
import { PLUGIN_CLI_PERMISSION_FLAGS } from "../../cli/server/deno_permissions.ts";
import { freePort, ROOT } from "./hub_process.ts";

export const TEST_PLUGIN_FIXTURE = join(ROOT, "tests", "fixtures", "plugins", "test-app");
const PLUGIN_CLI = join(ROOT, "plugin_cli", "main.ts");
/** Not copied: build output, and the editor-only deno.json whose relative imports would break. */
const SKIPPED = new Set(["dist", "node_modules", "deno.json"]);

async function copyDir(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const entry of Deno.readDir(from)) {
    if (SKIPPED.has(entry.name)) continue;
    const source = join(from, entry.name);
    const target = join(to, entry.name);
    if (entry.isDirectory) await copyDir(source, target);
    else if (entry.isFile) await Deno.copyFile(source, target);
  }
}

/**
 * `hub-plugin build --dir <dir>` with `configDir` as HUB_CONFIG_DIR, telling the hub on `port`;
 * by default a port where no hub listens, so it never reaches a real hub (as a rebuild by another
 * tool). Output is piped.
 */
export function pluginBuildCommand(dir: string, configDir: string, port?: number): Deno.Command {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", ...PLUGIN_CLI_PERMISSION_FLAGS, PLUGIN_CLI, "build", "--dir", dir],
    cwd: ROOT,
    env: {
      HUB_CONFIG_DIR: configDir,
      HUB_SKIP_PKG_DISCOVERY: "1",
      HUB_PORT: String(port ?? freePort()),
      NO_COLOR: "1",
    },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  });
}

/** Runs `pluginBuildCommand` and returns its output; throws with the output on failure. */
export async function buildPluginDir(
  dir: string,
  configDir: string,
  options: { port?: number } = {},
): Promise<string> {
  const out = await pluginBuildCommand(dir, configDir, options.port).output();
  const decoder = new TextDecoder();
  if (out.code !== 0) {
    throw new Error(
      `hub-plugin build of ${dir} exited with ${out.code}.
` +
        `stdout:
${decoder.decode(out.stdout)}
stderr:
${decoder.decode(out.stderr)}`,
    );
  }
  return decoder.decode(out.stdout);
}

/**
 * Copies the fixture to a new temp dir, builds it there and returns the copy's path (its
 * `dist/tools.json` and `dist/adapter.iife.js` exist). The build registers the copy in the
 * `localPlugins` of `configDir`. The caller removes the returned dir.
 */
export async function buildTestPlugin(configDir: string): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "hub-test-app-" });
  try {
    await copyDir(TEST_PLUGIN_FIXTURE, dir);
    await buildPluginDir(dir, configDir);
    return dir;
  } catch (error) {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
    throw error;
  }
}
