/**
 * Loads a plugin at build time to learn its tools: bundles the entry together with the SDK's
 * describer and runs the bundle in a separate Deno process with **no permissions** and no `Deno`
 * global, so a plugin's top-level code can neither touch this machine nor rely on Deno APIs
 * (it will run in a web page). The process prints the description as JSON.
 */
import { UserError } from "../core/cli/user_error.ts";
import type { PluginDescription } from "../sdk/describe.ts";
import { bundle, SDK_DESCRIBE } from "./bundle.ts";
import type { PluginProject } from "./project.ts";

const MARK = "HUB_DESCRIBE_RESULT:";
const FAIL = "HUB_DESCRIBE_ERROR:";
const LOAD_FAIL = "HUB_LOAD_ERROR:";

/** The generated entry: hides `Deno`, imports the plugin lazily, prints one marked line. */
function describeEntry(entry: string): string {
  return `
import { describePlugin } from ${JSON.stringify(SDK_DESCRIBE)};
const host = globalThis.Deno;
delete globalThis.Deno;
const print = (line) => host.stdout.writeSync(new TextEncoder().encode(line + "\\n"));
let plugin;
try {
  plugin = (await import(${JSON.stringify(entry)})).default;
} catch (error) {
  print(${JSON.stringify(LOAD_FAIL)} + JSON.stringify(String(error?.message ?? error)));
  host.exit(2);
}
try {
  print(${JSON.stringify(MARK)} + JSON.stringify(describePlugin(plugin)));
} catch (error) {
  print(${JSON.stringify(FAIL)} + JSON.stringify(String(error?.message ?? error)));
  host.exit(3);
}
`;
}

function lastMarked(stdout: string, mark: string): string | undefined {
  const line = stdout.split("\n").reverse().find((l) => l.startsWith(mark));
  return line === undefined ? undefined : JSON.parse(line.slice(mark.length));
}

export async function describeProject(project: PluginProject): Promise<PluginDescription> {
  const code = await bundle(project.dir, describeEntry(project.entry), "esm");
  const file = await Deno.makeTempFile({ prefix: "hub-plugin-", suffix: ".mjs" });
  try {
    await Deno.writeTextFile(file, code);
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--quiet", "--no-prompt", "--no-config", "--no-lock", file],
      stdout: "piped",
      stderr: "piped",
      stdin: "null",
    }).output();
    const stdout = new TextDecoder().decode(output.stdout);
    const loadError = lastMarked(stdout, LOAD_FAIL);
    if (loadError !== undefined) {
      throw new UserError(
        `Loading ${project.entry} failed: ${loadError}\n` +
          `(hub-plugin runs the file's top-level code once, outside the browser and without ` +
          `Deno APIs, to read its tools; touch the page - document, window, fetch - only inside ` +
          `isReady() and handle().)`,
      );
    }
    const describeError = lastMarked(stdout, FAIL);
    if (describeError !== undefined) throw new UserError(`${project.entry}: ${describeError}`);
    const result = lastMarked(stdout, MARK) as PluginDescription | undefined;
    if (result === undefined) {
      const stderr = new TextDecoder().decode(output.stderr).trim();
      throw new UserError(`Loading ${project.entry} failed: ${stderr || `exit ${output.code}`}`);
    }
    return result;
  } finally {
    await Deno.remove(file).catch(() => {});
  }
}
