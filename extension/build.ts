/// <reference lib="deno.ns" />
/**
 * Builds the extension into `extension/dist/`: `manifest.json`, `background.js` (the service
 * worker), `bridge.js` (the page bridge, isolated world) and `runner.js` (the call runner, MAIN
 * world). The output is committed, so `hub start` installs it
 * without a bundler; `build_test.ts` fails when it is stale. Run: `deno task build:extension`.
 */
import * as esbuild from "esbuild";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { buildManifest } from "./manifest.ts";

const SRC = fileURLToPath(new URL("./src/", import.meta.url));
export const DIST = fileURLToPath(new URL("./dist/", import.meta.url));
const ROOT = fileURLToPath(new URL("../", import.meta.url));

/** zod as Deno resolves it for the hub (node_modules or Deno's npm cache). */
const zodResolver: esbuild.Plugin = {
  name: "zod",
  setup(build) {
    build.onResolve({ filter: /^zod(\/.*)?$/ }, (args) => ({
      path: fileURLToPath(import.meta.resolve(args.path)),
    }));
  },
};

async function bundle(entry: string): Promise<string> {
  const result = await esbuild.build({
    entryPoints: [join(SRC, entry)],
    absWorkingDir: ROOT,
    bundle: true,
    write: false,
    format: "iife",
    platform: "browser",
    target: "chrome120",
    minify: true,
    charset: "utf8",
    legalComments: "none",
    logLevel: "silent",
    plugins: [zodResolver],
  });
  return result.outputFiles[0].text;
}

/** The built files, by name. */
export async function buildExtension(): Promise<Record<string, string>> {
  try {
    const [background, bridge, runner] = await Promise.all(
      ["background.ts", "bridge.ts", "runner.ts"].map(bundle),
    );
    return {
      "manifest.json": JSON.stringify(buildManifest(), null, 2) + "\n",
      "background.js": background,
      "bridge.js": bridge,
      "runner.js": runner,
    };
  } finally {
    await esbuild.stop();
  }
}

if (import.meta.main) {
  const files = await buildExtension();
  await Deno.mkdir(DIST, { recursive: true });
  for (const [name, text] of Object.entries(files)) {
    await Deno.writeTextFile(join(DIST, name), text);
    console.log(`extension/dist/${name}  ${(text.length / 1024).toFixed(1)} KB`);
  }
}
