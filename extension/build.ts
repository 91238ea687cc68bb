/// <reference lib="deno.ns" />
/**
 * Builds the extension into `extension/dist/` (the files are listed in `protocol/extension_files.ts`): the
 * manifest, the esbuild bundles of `extension/src/`, static files and the icons. The output is
 * committed, so `hub start` installs it without a bundler; `build_test.ts` fails when it is stale.
 * Run: `deno task build:extension`.
 */
import * as esbuild from "esbuild";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { buildManifest } from "./manifest.ts";
import {
  EXTENSION_BUNDLES,
  EXTENSION_ICON_SIZES,
  EXTENSION_STATIC,
  iconFile,
} from "../protocol/extension_files.ts";
import { pngIcon } from "./icons.ts";
import { noJsonSchema } from "../protocol/no_json_schema.ts";

/** The browsers the bundles are written for (esbuild `target`); page scripts in tests use it too. */
export const BUNDLE_TARGET = "chrome120";

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
    target: BUNDLE_TARGET,
    minify: true,
    charset: "utf8",
    legalComments: "none",
    logLevel: "silent",
    plugins: [zodResolver, noJsonSchema(esbuild, "the hub extension")],
  });
  return result.outputFiles[0].text;
}

/** The built files, by name: text, or bytes for the icons. */
export async function buildExtension(): Promise<Record<string, string | Uint8Array>> {
  try {
    const files: Record<string, string | Uint8Array> = {
      "manifest.json": JSON.stringify(buildManifest(), null, 2) + "\n",
    };
    const bundles = Object.entries(EXTENSION_BUNDLES);
    const built = await Promise.all(bundles.map(([, entry]) => bundle(entry)));
    bundles.forEach(([name], i) => (files[name] = built[i]));
    for (const [name, source] of Object.entries(EXTENSION_STATIC)) {
      files[name] = await Deno.readTextFile(join(SRC, source));
    }
    for (const size of EXTENSION_ICON_SIZES) files[iconFile(size)] = pngIcon(size);
    return files;
  } finally {
    await esbuild.stop();
  }
}

if (import.meta.main) {
  const files = await buildExtension();
  await Deno.mkdir(DIST, { recursive: true });
  for (const [name, data] of Object.entries(files)) {
    if (typeof data === "string") await Deno.writeTextFile(join(DIST, name), data);
    else await Deno.writeFile(join(DIST, name), data);
    console.log(`extension/dist/${name}  ${(data.length / 1024).toFixed(1)} KB`);
  }
}
