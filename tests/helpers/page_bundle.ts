/**
 * A page script bundled from TypeScript source, for real-browser tests that add the kit's parts
 * to a page by hand (`page.addScriptTag`, `addInitScript`): esbuild as extension/build.ts runs it
 * (an IIFE for the same browsers), unminified, from `contents` whose imports resolve from the
 * repository root (`import "./extension/src/page/dom_kit.ts";`).
 */
import * as esbuild from "esbuild";
import { fileURLToPath } from "node:url";
import { BUNDLE_TARGET } from "../../extension/build.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** `contents` (TypeScript, imports relative to the repository root) as one browser script. */
export async function bundlePageScript(contents: string): Promise<string> {
  try {
    const result = await esbuild.build({
      stdin: { contents, resolveDir: ROOT, loader: "ts" },
      absWorkingDir: ROOT,
      bundle: true,
      write: false,
      format: "iife",
      platform: "browser",
      target: BUNDLE_TARGET,
      logLevel: "silent",
    });
    return result.outputFiles[0].text;
  } finally {
    await esbuild.stop();
  }
}
