/**
 * `hub plugin create [name] [--domain] [--display] [--description]`: scaffolds a plugin project in
 * `./<name>`. On a terminal it asks for what is missing; otherwise it names the missing flags.
 */
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { pluginNameError } from "../../protocol/plugin_manifest.ts";
import { UserError } from "../../core/cli/user_error.ts";
import { userCwd } from "../../core/client/client_context.ts";
import { parseDomain, scaffoldFiles, type ScaffoldInput, titleCase } from "./scaffold.ts";
import { isInside } from "../../core/plugin_source/allowed_roots.ts";

/** Where this hub's code lives (a checkout, or the installed package); no plugin goes inside. */
const HUB_ROOT = fileURLToPath(new URL("../../", import.meta.url)).replace(/[\\/]$/, "");

export interface CreateOptions {
  domain?: string;
  display?: string;
  description?: string;
}

type Ask = (question: string, fallback?: string) => string | null;

function check<T>(value: string, parse: (v: string) => T, label: string): T {
  try {
    return parse(value);
  } catch (error) {
    throw new UserError(`${label}: ${(error as Error).message}`);
  }
}

const parseName = (v: string) => {
  const problem = pluginNameError(v);
  if (problem) throw new Error(problem);
  return v;
};

/** Asks until the answer parses (or the user ends input). */
function askUntilValid<T>(ask: Ask, question: string, parse: (v: string) => T, fallback?: string) {
  while (true) {
    const answer = ask(question, fallback);
    if (answer === null) throw new UserError("Cancelled: no answer.");
    try {
      return parse(answer.trim() || fallback || "");
    } catch (error) {
      console.error(`  ${(error as Error).message}`);
    }
  }
}

/** Collects the scaffold input from arguments, prompting on a terminal. Exported for tests. */
export function collectInput(
  name: string | undefined,
  options: CreateOptions,
  ask: Ask | undefined,
): ScaffoldInput {
  if (!ask) {
    const missing = [
      ...(name === undefined ? ["<name>"] : []),
      ...(options.domain === undefined ? ["--domain <domain>"] : []),
    ];
    if (missing.length > 0) {
      throw new UserError(
        `Missing ${missing.join(" and ")} (no terminal to ask on). Example:\n` +
          `  hub plugin create my-app --domain app.example.com ` +
          `--display "My App" --description "Tools for My App"`,
      );
    }
  }
  const finalName = name !== undefined
    ? check(name, parseName, "Plugin name")
    : askUntilValid(ask!, "Plugin name (lowercase, hyphens):", parseName);
  const domain = options.domain !== undefined
    ? check(options.domain, parseDomain, "--domain")
    : askUntilValid(ask!, "Domain of the web app (e.g. app.example.com):", parseDomain);
  for (
    const [flag, value] of [["--display", options.display], ["--description", options.description]]
  ) {
    if (value !== undefined && value.trim() === "") {
      throw new UserError(`${flag} must not be empty (leave it out to get a default).`);
    }
  }
  const display = options.display ??
    (ask ? askUntilValid(ask, "Display name:", (v) => v, titleCase(finalName)) : undefined) ??
    titleCase(finalName);
  const fallbackDescription = `Tools for ${display} (${domain})`;
  const description = options.description ??
    (ask ? askUntilValid(ask, "Description:", (v) => v, fallbackDescription) : undefined) ??
    fallbackDescription;
  return { name: finalName, domain, displayName: display, description };
}

async function isEmptyOrMissing(dir: string): Promise<boolean> {
  try {
    for await (const _ of Deno.readDir(dir)) return false;
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return true;
    throw new UserError(`${dir} exists and is not a folder.`);
  }
}

/** Whether hub runs from its sources (a checkout), where `hub-plugin` may not be on PATH. */
async function isCheckout(): Promise<boolean> {
  try {
    return (await Deno.stat(join(HUB_ROOT, "plugin_cli", "main.ts"))).isFile;
  } catch {
    return false;
  }
}

const terminalAsk: Ask = (question, fallback) =>
  prompt(fallback ? `${question} [${fallback}]` : question);

export async function createPluginCommand(name: string | undefined, options: CreateOptions) {
  const ask = Deno.stdin.isTerminal() ? terminalAsk : undefined;
  const input = collectInput(name, options, ask);
  const dir = resolve(userCwd(), input.name);
  if (isInside(dir, HUB_ROOT)) {
    throw new UserError(
      `That would create the plugin inside hub's own folder (${HUB_ROOT}), where hub's checks ` +
        `would pick it up. Run it from the folder you want the plugin in, e.g.\n` +
        `  cd ~ && deno task --cwd ${HUB_ROOT} hub plugin create ${input.name} ...`,
    );
  }
  if (!(await isEmptyOrMissing(dir))) {
    throw new UserError(`${dir} already exists and is not empty; choose another name or folder.`);
  }
  for (const [file, content] of Object.entries(scaffoldFiles(input))) {
    const path = join(dir, file);
    await Deno.mkdir(dirname(path), { recursive: true });
    await Deno.writeTextFile(path, content);
  }
  console.log(
    [
      `Created plugin "${input.name}" in ${dir}`,
      "",
      "Next:",
      `  cd ${dir}`,
      "  deno task build     # = hub-plugin build: builds dist/, registers it, reloads a running hub",
      ...(await isCheckout()
        ? [
          `                      # (this hub is a checkout: deno task --cwd ${HUB_ROOT} hub-plugin ` +
          `build --dir ${dir})`,
        ]
        : []),
      "  hub status          # shows the plugin and its tools once a hub runs",
      `  hub config set plugin-permission.${input.name} ask   # tools are off until allowed`,
    ].join("\n"),
  );
}
