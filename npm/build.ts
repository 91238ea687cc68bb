/**
 * Builds the `@tabhub/hub` npm package from this repository into a folder ready for
 * `npm publish` (default `dist/npm/hub/`):
 *
 * - `main.js`, `plugin_cli/main.js`: the hub and `hub-plugin`, bundled (npm/bundle.ts), each with
 *   the `chunk-*.js` files beside it that the program imports when it needs them;
 * - `sdk/`, `protocol/`: the SDK sources `hub-plugin` compiles into plugins;
 * - `extension/dist/`: the built browser extension the hub installs;
 * - `bin/`: the launchers (npm/bin/), `flags.json`: their permission flags (cli/server/deno_permissions.ts);
 * - `deno.json`: Deno resolves npm imports from the package's own node_modules, offline;
 * - `package.json` (npm/package_template.json + VERSION + the exact versions of deno.lock) and
 *   `npm-shrinkwrap.json`, so an install gets the same dependency tree every time.
 *
 * Run: `deno run -A npm/build.ts [out dir]`.
 */
import { join, relative, sep } from "node:path";
// @ts-types="@types/semver"
import semver from "semver";
import { VERSION } from "../protocol/version.ts";
import { bundleEntry, stopBundler } from "./bundle.ts";
import { pinnedVersions } from "./dependencies.ts";
import { wrapperFlags } from "./permission_flags.ts";
import { runNpm } from "./npm_command.ts";

export const ROOT = join(import.meta.dirname!, "..");
export const DEFAULT_OUT_DIR = join(ROOT, "dist", "npm", "hub");
const PACKAGE_NAME = "@tabhub/hub";

/** The programs of the package: source entry → bundle, both relative to their roots. */
export const BUNDLES = [
  { entry: "main.ts", bundle: "main.js" },
  { entry: "plugin_cli/main.ts", bundle: "plugin_cli/main.js" },
] as const;

/** Source folders shipped as TypeScript: `hub-plugin` compiles them into each plugin. */
const SOURCE_DIRS = ["sdk", "protocol"];

export interface BuildOptions {
  outDir?: string;
  /** Environment for npm (the shrinkwrap resolves against the registry npm is configured with). */
  npmEnv?: Record<string, string>;
  /**
   * The version the package carries and its programs report (default VERSION). Tests publish a
   * later one to exercise `hub update`; a release always builds VERSION.
   */
  version?: string;
}

export interface BuildResult {
  outDir: string;
  /** The programs' files: each bundle and its chunks, relative to `outDir`. */
  programFiles: string[];
  version: string;
  dependencies: Record<string, string>;
  files: number;
  bytes: number;
}

export async function buildHubPackage(options: BuildOptions = {}): Promise<BuildResult> {
  const outDir = options.outDir ?? DEFAULT_OUT_DIR;
  const version = options.version ?? VERSION;
  if (!semver.valid(version)) {
    throw new Error(`Cannot build the npm package as version "${version}": not a semver version.`);
  }
  await prepareOutDir(outDir);
  const imported = new Set<string>();
  const programs: { name: string; files: string[] }[] = [];
  try {
    for (const { entry, bundle } of BUNDLES) {
      const result = await bundleEntry(ROOT, entry, outDir, bundle);
      programs.push({ name: `${bundle} and its chunks`, files: result.files });
      const testCode = result.inputs.find((path) => /_test\.ts$|^(tests|bench)\//.test(path));
      if (testCode) {
        throw new Error(`Cannot build the npm package: ${entry} imports test code (${testCode}).`);
      }
      for (const name of result.packages) imported.add(name);
    }
  } finally {
    await stopBundler();
  }
  for (const dir of SOURCE_DIRS) {
    await copyTree(join(ROOT, dir), join(outDir, dir), isShippedSource);
  }
  await copyExtension(outDir);
  if (version !== VERSION) await stampVersion(outDir, programs, version);
  await copyTree(join(ROOT, "npm", "bin"), join(outDir, "bin"), (name) => name.endsWith(".cjs"));
  await Deno.copyFile(join(ROOT, "npm", "package_readme.md"), join(outDir, "README.md"));

  const lock = await Deno.readTextFile(join(ROOT, "deno.lock"));
  const template = await readJson(join(ROOT, "npm", "package_template.json"));
  const pkg = packageJson(template, [...imported], lock, version);
  await writeJson(join(outDir, "package.json"), pkg);
  await writeJson(join(outDir, "deno.json"), await packageDenoJson());
  await writeJson(join(outDir, "flags.json"), wrapperFlags());
  await writeShrinkwrap(outDir, options.npmEnv);
  const { files, bytes } = await folderSize(outDir);
  const programFiles = programs.flatMap((p) => p.files);
  return { outDir, programFiles, version, dependencies: pkg.dependencies, files, bytes };
}

interface PackageJson {
  name: string;
  version: string;
  dependencies: Record<string, string>;
  [key: string]: unknown;
}

/** The template with `version` and the exact versions of the npm packages the bundles import. */
export function packageJson(
  template: Record<string, unknown>,
  imported: string[],
  lockText: string,
  version: string = VERSION,
): PackageJson {
  const fixed = (template.dependencies ?? {}) as Record<string, string>;
  const pinned = pinnedVersions(imported.filter((name) => !(name in fixed)), lockText);
  const dependencies = Object.fromEntries(
    Object.entries({ ...fixed, ...pinned }).sort(([a], [b]) => a.localeCompare(b)),
  );
  return { ...template, name: PACKAGE_NAME, version, dependencies };
}

/**
 * Makes the built programs and the shipped protocol/version.ts say `version` instead of VERSION:
 * each program (its bundle and chunks) and the file must set VERSION exactly once (`var VERSION = "…"` in a bundle, or `VERSION = "…"` when
 * esbuild wraps protocol/version.ts to initialize it lazily, as for files that are also reached
 * through a dynamic import).
 */
async function stampVersion(
  outDir: string,
  programs: { name: string; files: string[] }[],
  version: string,
) {
  const groups = [...programs, { name: "protocol/version.ts", files: ["protocol/version.ts"] }];
  for (const group of groups) {
    const stamped = await Promise.all(group.files.map(async (file) => {
      const path = join(outDir, file);
      return { path, ...restampVersion(await Deno.readTextFile(path), version) };
    }));
    const found = stamped.reduce((n, s) => n + s.found, 0);
    if (found !== 1) {
      throw new Error(
        `Cannot build the npm package as version ${version}: ${group.name} declare VERSION ` +
          `${found} times instead of once.`,
      );
    }
    for (const { path, text, found } of stamped) if (found) await Deno.writeTextFile(path, text);
  }
}

/** `text` with its VERSION assignments set to `version`, and how many there were. */
export function restampVersion(text: string, version: string): { text: string; found: number } {
  const quoted = JSON.stringify(VERSION).replace(/[.+]/g, "\\$&");
  const assignment = new RegExp(`(^|[^\\w.$])((?:var |const )?)VERSION = ${quoted};`, "gm");
  return {
    text: text.replace(assignment, `$1$2VERSION = "${version}";`),
    found: text.match(assignment)?.length ?? 0,
  };
}

/**
 * The package's deno.json: npm packages come from its node_modules as npm installed them
 * (`manual`: Deno downloads nothing), no lockfile (npm-shrinkwrap.json pins the tree, and a global
 * install folder may not be writable), and the repository's unstable features.
 */
export async function packageDenoJson(): Promise<Record<string, unknown>> {
  const root = await readJson(join(ROOT, "deno.json"));
  return { nodeModulesDir: "manual", lock: false, unstable: root.unstable ?? [] };
}

/** Empties `outDir`, refusing a non-empty folder that is not an earlier build of this package. */
async function prepareOutDir(outDir: string): Promise<void> {
  let entries: string[];
  try {
    entries = [...Deno.readDirSync(outDir)].map((e) => e.name);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
    entries = [];
  }
  if (entries.length > 0) {
    const earlier = await readJson(join(outDir, "package.json")).catch(() => undefined);
    if (earlier?.name !== PACKAGE_NAME) {
      throw new Error(
        `Cannot build the npm package into ${outDir}: the folder is not empty and holds no ` +
          `earlier build of ${PACKAGE_NAME}. Choose an empty or new folder.`,
      );
    }
    await Deno.remove(outDir, { recursive: true });
  }
  await Deno.mkdir(outDir, { recursive: true });
}

/** A shipped source: TypeScript that is not a test (`_`-prefixed files are used by the SDK). */
function isShippedSource(name: string): boolean {
  return name.endsWith(".ts") && !name.endsWith("_test.ts");
}

async function copyTree(from: string, to: string, keep: (name: string) => boolean) {
  for await (const entry of Deno.readDir(from)) {
    const source = join(from, entry.name);
    if (entry.isDirectory) await copyTree(source, join(to, entry.name), keep);
    else if (entry.isFile && keep(entry.name)) {
      await Deno.mkdir(to, { recursive: true });
      await Deno.copyFile(source, join(to, entry.name));
    }
  }
}

/** Copies the built extension, which must be built from this VERSION. */
async function copyExtension(outDir: string): Promise<void> {
  const dist = join(ROOT, "extension", "dist");
  const manifest = await readJson(join(dist, "manifest.json")).catch(() => undefined);
  const built = manifest?.version_name ?? manifest?.version;
  if (built !== VERSION) {
    throw new Error(
      `Cannot package the browser extension: extension/dist/manifest.json has version ` +
        `${JSON.stringify(built ?? "(no manifest)")}, hub is ${VERSION}. Build it ` +
        `with "deno task build:extension".`,
    );
  }
  await copyTree(dist, join(outDir, "extension", "dist"), () => true);
}

/** Resolves the whole dependency tree once and ships it as npm-shrinkwrap.json. */
async function writeShrinkwrap(outDir: string, env?: Record<string, string>): Promise<void> {
  await runNpm(
    ["install", "--package-lock-only", "--ignore-scripts", "--no-audit", "--no-fund"],
    { cwd: outDir, env, timeoutMs: 3 * 60_000 },
  );
  await Deno.rename(join(outDir, "package-lock.json"), join(outDir, "npm-shrinkwrap.json"));
}

async function folderSize(dir: string): Promise<{ files: number; bytes: number }> {
  let files = 0;
  let bytes = 0;
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) {
      const inner = await folderSize(path);
      files += inner.files;
      bytes += inner.bytes;
    } else if (entry.isFile) {
      files++;
      bytes += (await Deno.stat(path)).size;
    }
  }
  return { files, bytes };
}

// deno-lint-ignore no-explicit-any
async function readJson(path: string): Promise<Record<string, any>> {
  return JSON.parse(await Deno.readTextFile(path));
}

async function writeJson(path: string, value: unknown): Promise<void> {
  await Deno.writeTextFile(path, `${JSON.stringify(value, null, 2)}\n`);
}

if (import.meta.main) {
  try {
    const result = await buildHubPackage({ outDir: Deno.args[0] });
    const where = relative(Deno.cwd(), result.outDir).split(sep).join("/") || ".";
    console.log(
      `Built ${PACKAGE_NAME}@${result.version} in ${where} (${result.files} files, ` +
        `${(result.bytes / 1024).toFixed(0)} KiB). Publish it with: npm publish ${where}`,
    );
  } catch (error) {
    console.error((error as Error).message);
    Deno.exit(1);
  }
}
