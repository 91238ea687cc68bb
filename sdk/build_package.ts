/// <reference lib="deno.ns" />
/**
 * Builds the npm package `@tabhub/sdk` from this folder into a folder ready for `npm publish`
 * (default `dist/npm/sdk/`):
 *
 * - `mod.js`, `describe.js`: the SDK's two doors (mod.ts, describe.ts) as ES modules, bundled by
 *   esbuild with the protocol files they use; `zod` stays an import (a dependency of the package);
 * - `types/`: TypeScript declarations emitted by a pinned tsc, with relative imports ending in
 *   `.js` so every resolver finds the `.d.ts` beside them;
 * - `package.json` (version SDK_VERSION, zod's range from the root deno.json) and `README.md`.
 *
 * Nothing in the output names a path of the machine that built it.
 * Run: `deno run -A sdk/build_package.ts [out dir]`.
 */
import * as esbuild from "esbuild";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { SDK_VERSION, sdkRange } from "../protocol/version.ts";

export const SDK_PACKAGE_NAME = "@tabhub/sdk";
const SDK_DIR = fileURLToPath(new URL(".", import.meta.url));
const ROOT = resolve(SDK_DIR, "..");
export const DEFAULT_OUT_DIR = join(ROOT, "dist", "npm", "sdk");

/** The compiler that writes the declarations; pinned so a release is reproducible. */
const TYPESCRIPT = "npm:typescript@5.9.3";
/** Entry points of the package: export subpath → source file in sdk/ and the bundle's name. */
const DOORS = [
  { subpath: ".", source: "mod.ts", name: "mod" },
  { subpath: "./describe", source: "describe.ts", name: "describe" },
] as const;
const TYPES_DIR = "types";

/**
 * Builds the package into `outDir` (emptied first when it holds an earlier build). esbuild's
 * service stays up for other builds of the same process; stop it with `esbuild.stop()` when done.
 */
export async function buildSdkPackage(outDir: string): Promise<void> {
  await prepareOutDir(outDir);
  await bundleDoors(outDir);
  await emitDeclarations(join(outDir, TYPES_DIR));
  await Deno.writeTextFile(
    join(outDir, "README.md"),
    (await Deno.readTextFile(join(SDK_DIR, "package_readme.md")))
      .replaceAll("{{SDK_RANGE}}", sdkRange()),
  );
  const pkg = sdkPackageJson(await zodRange(), await topLevelNames(outDir));
  await Deno.writeTextFile(join(outDir, "package.json"), JSON.stringify(pkg, null, 2) + "\n");
}

/** package.json of the package; `files` lists what the build wrote at the top of the folder. */
export function sdkPackageJson(zod: string, files: string[]): Record<string, unknown> {
  const exports: Record<string, unknown> = {};
  for (const door of DOORS) {
    exports[door.subpath] = { types: typesOf(door.source), default: `./${door.name}.js` };
  }
  exports["./package.json"] = "./package.json";
  return {
    name: SDK_PACKAGE_NAME,
    version: SDK_VERSION,
    description: "SDK for hub plugins: tools for AI agents that run in the user's own browser tabs",
    keywords: ["hub", "mcp", "browser", "sdk", "plugin"],
    license: "UNLICENSED",
    type: "module",
    exports,
    main: "./mod.js",
    types: typesOf("mod.ts"),
    files: files.filter((name) => name !== "package.json").sort(),
    dependencies: { zod },
  };
}

function typesOf(source: string): string {
  return `./${TYPES_DIR}/sdk/${source.replace(/\.ts$/, ".d.ts")}`;
}

/** The range of zod that hub itself uses (root deno.json: `"zod": "npm:zod@<range>"`). */
async function zodRange(): Promise<string> {
  const config = JSON.parse(await Deno.readTextFile(join(ROOT, "deno.json")));
  const match = /^npm:zod@(.+)$/.exec(String(config.imports?.zod ?? ""));
  if (!match) {
    throw new Error(
      `Cannot build ${SDK_PACKAGE_NAME}: deno.json maps "zod" to ` +
        `${JSON.stringify(config.imports?.zod ?? null)}, not to "npm:zod@<range>".`,
    );
  }
  return match[1];
}

async function bundleDoors(outDir: string): Promise<void> {
  try {
    await esbuild.build({
      entryPoints: Object.fromEntries(DOORS.map((d) => [d.name, join(SDK_DIR, d.source)])),
      absWorkingDir: ROOT,
      outdir: outDir,
      bundle: true,
      splitting: true,
      chunkNames: "chunks/[name]-[hash]",
      format: "esm",
      platform: "browser",
      target: "es2022",
      external: ["zod", "zod/*"],
      charset: "utf8",
      legalComments: "none",
      logLevel: "silent",
    });
  } catch (error) {
    const errors = (error as esbuild.BuildFailure).errors ?? [];
    const text = errors.slice(0, 5).map((m) => m.text).join("; ") || (error as Error).message;
    throw new Error(`Cannot bundle ${SDK_PACKAGE_NAME}: ${text}`);
  }
}

/** Where zod's package folder is for hub (node_modules or Deno's npm cache). */
function zodPackageDir(): string {
  let dir = dirname(fileURLToPath(import.meta.resolve("zod")));
  while (!existsFile(join(dir, "package.json")) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

function existsFile(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

/** Writes `.d.ts` files for the doors and everything they import, under `typesDir`. */
async function emitDeclarations(typesDir: string): Promise<void> {
  const work = await Deno.makeTempDir({ prefix: "hub-sdk-types-" });
  try {
    const tsconfig = {
      compilerOptions: {
        target: "es2022",
        module: "esnext",
        moduleResolution: "bundler",
        lib: ["dom", "dom.iterable", "esnext"],
        strict: true,
        declaration: true,
        emitDeclarationOnly: true,
        allowImportingTsExtensions: true,
        skipLibCheck: true,
        types: [],
        rootDir: ROOT,
        outDir: typesDir,
        paths: { zod: [zodPackageDir()] },
      },
      files: DOORS.map((d) => join(SDK_DIR, d.source)),
    };
    await Deno.writeTextFile(join(work, "tsconfig.json"), JSON.stringify(tsconfig, null, 2));
    await runTsc(join(work, "tsconfig.json"), [typesDir, work]);
  } finally {
    await Deno.remove(work, { recursive: true }).catch(() => {});
  }
  for await (const path of filesUnder(typesDir)) {
    if (!path.endsWith(".d.ts")) continue;
    await Deno.writeTextFile(path, withJsSpecifiers(await Deno.readTextFile(path)));
  }
}

async function runTsc(project: string, writable: string[]): Promise<void> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--quiet",
      "--no-config",
      "--no-lock",
      "--allow-read",
      `--allow-write=${writable.join(",")}`,
      "--allow-env",
      "--allow-sys",
      `${TYPESCRIPT}/tsc`,
      "-p",
      project,
    ],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!output.success) {
    const text = new TextDecoder().decode(output.stdout) + new TextDecoder().decode(output.stderr);
    throw new Error(
      `Cannot write the declarations of ${SDK_PACKAGE_NAME}: tsc (${TYPESCRIPT}) exited with ` +
        `code ${output.code}:\n${text.trim().slice(0, 4000)}`,
    );
  }
}

/**
 * Declarations with relative imports of `.ts` files pointed at `.js` (`"./zod.ts"` → `"./zod.js"`):
 * tsc keeps the source's specifiers, and a `.ts` file is not in the package.
 */
export function withJsSpecifiers(text: string): string {
  return text.replace(
    /((?:from\s+|import\s*\(\s*|import\s+)["'])(\.{1,2}\/[^"']*?)\.ts(["'])/g,
    "$1$2.js$3",
  );
}

async function* filesUnder(dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) yield* filesUnder(path);
    else if (entry.isFile) yield path;
  }
}

async function topLevelNames(dir: string): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    names.push(entry.isDirectory ? `${entry.name}/` : entry.name);
  }
  return names;
}

/** Empties `outDir`, refusing a non-empty folder that is not an earlier build of this package. */
async function prepareOutDir(outDir: string): Promise<void> {
  let names: string[];
  try {
    names = await topLevelNames(outDir);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
    names = [];
  }
  if (names.length > 0) {
    let earlier: unknown;
    try {
      earlier = JSON.parse(await Deno.readTextFile(join(outDir, "package.json"))).name;
    } catch {
      earlier = undefined;
    }
    if (earlier !== SDK_PACKAGE_NAME) {
      throw new Error(
        `Cannot build ${SDK_PACKAGE_NAME} into ${outDir}: the folder is not empty and holds no ` +
          `earlier build of it. Choose an empty or new folder.`,
      );
    }
    await Deno.remove(outDir, { recursive: true });
  }
  await Deno.mkdir(outDir, { recursive: true });
}

if (import.meta.main) {
  const outDir = resolve(Deno.args[0] ?? DEFAULT_OUT_DIR);
  try {
    await buildSdkPackage(outDir);
    console.log(`Built ${SDK_PACKAGE_NAME} ${SDK_VERSION} in ${outDir}`);
  } catch (error) {
    console.error(`error: ${(error as Error).message}`);
    Deno.exitCode = 1;
  } finally {
    await esbuild.stop();
  }
}
