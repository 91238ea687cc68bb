/**
 * Bundles one entry of this repository (`main.ts`, `plugin_cli/main.ts`) into an ES module for
 * the npm package (with chunks beside it for what the program imports lazily), with its npm dependencies left as bare imports that Deno resolves from the
 * package's own node_modules. Deno refuses to run TypeScript that lives under node_modules, so the
 * package ships JavaScript.
 *
 * Sources find their files relative to themselves (`new URL("../../extension/dist/",
 * import.meta.url)`). Inside a bundle `import.meta` is the bundle's, so each source's
 * `import.meta.url`, `import.meta.dirname` and `import.meta.filename` are rewritten to the place
 * the source file has in the package (the package mirrors the repository's layout), and
 * `import.meta.main` is true only in the entry.
 */
import * as esbuild from "esbuild";
import { join, posix, relative, sep } from "node:path";

export interface BundleResult {
  /** The npm packages the bundle imports (names, without subpaths). */
  packages: string[];
  /** The files written, relative to the package root: the bundle, then its chunks. */
  files: string[];
  /** Source files (repository paths) that went into the bundle. */
  inputs: string[];
  /** The chunk (a file of `files`) that each dynamically imported source starts, by its path. */
  chunks: Record<string, string>;
}

const toPosix = (path: string) => path.split(sep).join("/");

/**
 * `text` of the file at `sourcePath` with its `import.meta` uses pointing at that file's place
 * in a package whose bundle is `bundlePath` (both relative to the package root, `/`-separated).
 */
export function rewriteImportMeta(
  text: string,
  sourcePath: string,
  bundlePath: string,
  isEntry: boolean,
): string {
  if (/import\.meta\.resolve\(\s*["'`]\.\.?\//.test(text)) {
    throw new Error(
      `Cannot bundle ${sourcePath}: import.meta.resolve of a relative path would resolve from ` +
        `the bundle instead of the source file; use new URL(path, import.meta.url) instead.`,
    );
  }
  const fromBundle = posix.relative(posix.dirname(bundlePath), sourcePath);
  const dirFromBundle = posix.dirname(fromBundle);
  const url = `new URL(${JSON.stringify(`./${fromBundle}`)}, import.meta.url).href`;
  const dirSuffix = dirFromBundle === "." ? "" : `/${dirFromBundle}`;
  const dirname = `(import.meta.dirname && import.meta.dirname + ${JSON.stringify(dirSuffix)})`;
  const filename = `(import.meta.dirname && import.meta.dirname + ${
    JSON.stringify(`/${fromBundle}`)
  })`;
  return text
    .replaceAll("import.meta.url", url)
    .replaceAll("import.meta.dirname", dirname)
    .replaceAll("import.meta.filename", filename)
    .replaceAll("import.meta.main", isEntry ? "import.meta.main" : "false");
}

/** The npm package an import specifier names: `zod`, `@scope/name` (subpaths dropped). */
export function packageNameOf(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

/**
 * The import names of the workspace members (root deno.json "workspace"), each to the file it
 * exports: `@tabhub/sdk` → `<root>/sdk/mod.ts`, `@hub/protocol/errors` → `<root>/protocol/errors.ts`.
 */
export async function workspaceExports(root: string): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  const rootConfig = JSON.parse(await Deno.readTextFile(join(root, "deno.json")));
  for (const member of (rootConfig.workspace ?? []) as string[]) {
    const dir = join(root, member);
    const config = JSON.parse(await Deno.readTextFile(join(dir, "deno.json")));
    if (typeof config.name !== "string") continue;
    const exports = typeof config.exports === "string" ? { ".": config.exports } : config.exports;
    for (const [subpath, file] of Object.entries((exports ?? {}) as Record<string, string>)) {
      names.set(posix.join(config.name, subpath), join(dir, file));
    }
  }
  return names;
}

/** Bundles workspace members imported by name (`@hub/protocol/errors`) instead of leaving them. */
function workspacePlugin(exports: Map<string, string>): esbuild.Plugin {
  return {
    name: "hub-workspace",
    setup(build) {
      build.onResolve({ filter: /^@/ }, (args) => {
        const path = exports.get(args.path);
        return path === undefined ? undefined : { path };
      });
    },
  };
}

function importMetaPlugin(root: string, entry: string, bundlePath: string): esbuild.Plugin {
  return {
    name: "hub-import-meta",
    setup(build) {
      build.onLoad({ filter: /\.ts$/ }, async (args) => {
        const sourcePath = toPosix(relative(root, args.path));
        if (sourcePath.startsWith("..")) return undefined;
        const text = await Deno.readTextFile(args.path);
        const contents = rewriteImportMeta(text, sourcePath, bundlePath, sourcePath === entry);
        return { contents, loader: "ts" };
      });
    },
  };
}

/**
 * Bundles `entry` (a path relative to `root`) into `<outDir>/<bundlePath>`. Throws when esbuild
 * reports an error or a source imports an `npm:` specifier directly (the package resolves npm
 * dependencies by name from its node_modules, so they must go through deno.json's imports).
 */
export async function bundleEntry(
  root: string,
  entry: string,
  outDir: string,
  bundlePath: string,
): Promise<BundleResult> {
  const workspace = await workspaceExports(root);
  const bundleDir = posix.dirname(bundlePath);
  const result = await esbuild.build({
    entryPoints: { [posix.basename(bundlePath, ".js")]: join(root, entry) },
    absWorkingDir: root,
    outdir: join(outDir, bundleDir),
    // What the program imports when it needs it (a command's code, the MCP SDK on the first
    // session) goes into chunks beside the bundle, so its npm imports load then too; in one file
    // esbuild would hoist them to the top and load everything at start.
    splitting: true,
    chunkNames: "chunk-[hash]",
    bundle: true,
    format: "esm",
    platform: "neutral",
    target: "esnext",
    packages: "external",
    external: ["node:*"],
    charset: "utf8",
    legalComments: "inline",
    logLevel: "silent",
    metafile: true,
    plugins: [
      workspacePlugin(workspace),
      importMetaPlugin(root, toPosix(entry), bundlePath),
    ],
  });
  if (result.errors.length > 0) {
    throw new Error(`Cannot bundle ${entry}: ${result.errors[0].text}`);
  }
  const specifiers = Object.values(result.metafile.outputs)
    .flatMap((output) => output.imports)
    .filter((i) => i.external && !i.path.startsWith("node:"))
    .map((i) => i.path);
  const direct = specifiers.find((s) => s.startsWith("npm:") || s.startsWith("jsr:"));
  if (direct) {
    throw new Error(
      `Cannot bundle ${entry}: it imports "${direct}" directly; add the package to deno.json ` +
        `"imports" and import it by name, so the npm package can pin it.`,
    );
  }
  const members = new Set([...workspace.keys()].map(packageNameOf));
  const unexported = specifiers.find((s) => members.has(packageNameOf(s)));
  if (unexported) {
    throw new Error(
      `Cannot bundle ${entry}: it imports "${unexported}", which its workspace member does not ` +
        `export; add it to that member's deno.json "exports" or import the file by path.`,
    );
  }
  const written = (path: string) => toPosix(relative(outDir, join(root, path)));
  const files = Object.keys(result.metafile.outputs)
    .map(written)
    .sort((a, b) => Number(b === bundlePath) - Number(a === bundlePath) || a.localeCompare(b));
  return {
    packages: [...new Set(specifiers.map(packageNameOf))].sort(),
    files,
    inputs: Object.keys(result.metafile.inputs).map(toPosix).sort(),
    chunks: Object.fromEntries(
      Object.entries(result.metafile.outputs)
        .filter(([path, output]) => output.entryPoint && written(path) !== bundlePath)
        .map(([path, output]) => [toPosix(output.entryPoint!), written(path)]),
    ),
  };
}

/** Ends esbuild's helper process so the calling program can exit. */
export async function stopBundler(): Promise<void> {
  await esbuild.stop();
}
