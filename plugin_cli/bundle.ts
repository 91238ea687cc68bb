/**
 * esbuild for plugins. A plugin's `@tabhub/sdk` and `zod` imports always resolve to the SDK shipped
 * with this hub-plugin and its zod, so a plugin builds with no installs of its own, and its adapter
 * runs the SDK of the hub that built it (the range a plugin declares is checked in sdk_range.ts).
 * `@hub/sdk`, the SDK's name before it was published, still resolves (deprecated).
 */
import * as esbuild from "esbuild";
import { fileURLToPath } from "node:url";
import { isAbsolute, relative, sep } from "node:path";
import { UserError } from "../core/cli/user_error.ts";
import { namespaceZodImports } from "./zod_import.ts";
import { noJsonSchema } from "../protocol/no_json_schema.ts";

const SDK_DIR = fileURLToPath(new URL("../sdk/", import.meta.url));
export const SDK_ENTRY = `${SDK_DIR}mod.ts`;
export const SDK_ADAPTER_RUNTIME = `${SDK_DIR}_adapter.ts`;
export const SDK_DESCRIBE = `${SDK_DIR}describe.ts`;
/** The SDK's zod setup (jitless); an adapter entry imports it before the plugin. */
export const SDK_ZOD = `${SDK_DIR}zod.ts`;

const sdkResolver: esbuild.Plugin = {
  name: "hub-sdk",
  setup(build) {
    build.onResolve({ filter: /^@(tabhub|hub)\/sdk$/ }, () => ({ path: SDK_ENTRY }));
    // One zod for the plugin and the SDK: the one the SDK switched to jitless mode, found the way
    // Deno resolves it for hub itself (node_modules or Deno's npm cache).
    build.onResolve({ filter: /^zod(\/.*)?$/ }, (args) => {
      try {
        return { path: fileURLToPath(import.meta.resolve(args.path)) };
      } catch (error) {
        return { errors: [{ text: `Cannot resolve "${args.path}": ${(error as Error).message}` }] };
      }
    });
  },
};

const LOADERS: Record<string, esbuild.Loader> = {
  ts: "ts",
  mts: "ts",
  cts: "ts",
  tsx: "tsx",
  js: "js",
  mjs: "js",
  cjs: "js",
  jsx: "jsx",
};

/** The plugin's own source files (not its node_modules) import zod so that it tree-shakes. */
function zodNamespace(pluginDir: string): esbuild.Plugin {
  const own = (path: string) => {
    const inside = relative(pluginDir, path);
    return !inside.startsWith("..") && !isAbsolute(inside) &&
      !inside.split(sep).includes("node_modules");
  };
  return {
    name: "hub-zod-namespace",
    setup(build) {
      build.onLoad({ filter: /\.[cm]?[jt]sx?$/ }, async (args) => {
        if (!own(args.path)) return undefined;
        const source = await Deno.readTextFile(args.path);
        const contents = namespaceZodImports(source);
        if (contents === source) return undefined;
        return { contents, loader: LOADERS[args.path.split(".").pop() ?? ""] ?? "ts" };
      });
    },
  };
}

function formatMessages(messages: esbuild.Message[]): string {
  return messages.slice(0, 10).map((m) => {
    const at = m.location ? `${m.location.file}:${m.location.line}:${m.location.column + 1}: ` : "";
    return `  ${at}${m.text}`;
  }).join("\n");
}

/** The name esbuild gives an IIFE's exports; `completionValue` removes the variable again. */
const COMPLETION_NAME = "__hubAdapterCompletion";

/**
 * An IIFE bundle as a bare expression statement `(() => { ... return exports })();`, so the
 * script's completion value is the entry's exports (what `chrome.scripting.executeScript` hands
 * back to the extension) and no global variable holds them.
 */
export function completionValue(text: string): string {
  const declaration = new RegExp(`^((?:/\\*[^]*?\\*/\\s*)?)var ${COMPLETION_NAME}\\s*=\\s*`);
  if (!declaration.test(text)) {
    throw new Error("esbuild wrote the adapter IIFE in an unexpected shape; update hub-plugin.");
  }
  return text.replace(declaration, "$1");
}

/**
 * Bundles generated entry code that imports the plugin; returns the output text. An IIFE's
 * completion value is the entry's exports.
 */
export async function bundle(
  pluginDir: string,
  contents: string,
  format: "esm" | "iife",
  banner?: string,
): Promise<string> {
  try {
    const result = await esbuild.build({
      stdin: { contents, resolveDir: pluginDir, sourcefile: "hub-entry.ts", loader: "ts" },
      absWorkingDir: pluginDir,
      bundle: true,
      write: false,
      format,
      globalName: format === "iife" ? COMPLETION_NAME : undefined,
      platform: "browser",
      target: "es2022",
      minify: format === "iife",
      charset: "utf8",
      legalComments: "none",
      banner: banner ? { js: banner } : undefined,
      logLevel: "silent",
      // The adapter runs in the page, where no JSON Schema is made (describe runs as "esm").
      plugins: format === "iife"
        ? [sdkResolver, zodNamespace(pluginDir), noJsonSchema(esbuild, "plugin adapters")]
        : [sdkResolver, zodNamespace(pluginDir)],
    });
    const text = result.outputFiles[0].text;
    return format === "iife" ? completionValue(text) : text;
  } catch (error) {
    const failure = error as esbuild.BuildFailure;
    if (Array.isArray(failure.errors) && failure.errors.length > 0) {
      throw new UserError(`The plugin does not compile:\n${formatMessages(failure.errors)}`);
    }
    throw error;
  }
}

/** Ends esbuild's helper process so the command can exit. */
export async function stopBundler(): Promise<void> {
  await esbuild.stop();
}
