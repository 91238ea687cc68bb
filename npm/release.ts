/**
 * `deno task release`: checks that everything a release ships has one version (VERSION in
 * protocol/version.ts) and one permission set (cli/server/deno_permissions.ts), builds the npm packages into
 * dist/npm/ ready for `npm publish`, runs the compile tasks where `deno compile` can run, and
 * prints what to publish. Exits 1 when a check or a build fails.
 */
import { join, relative } from "node:path";
import { VERSION } from "../protocol/version.ts";
import { buildSdkPackage } from "../sdk/build_package.ts";
import { buildHubPackage, ROOT } from "./build.ts";
import { type CompileOutcome, runCompileTask } from "./compile_tasks.ts";
import {
  flagMismatches,
  readmeMismatches,
  TASKS_OF,
  type WrapperFlags,
} from "./permission_flags.ts";
import { repositoryVersions, versionMismatches } from "./version_check.ts";

const SDK_OUT_DIR = join(ROOT, "dist", "npm", "sdk");
const COMPILE_TASKS = ["compile:hub", "compile:hub-plugin"];

const rel = (path: string) => relative(Deno.cwd(), path) || ".";

function check(what: string, problems: string[]): void {
  if (problems.length === 0) return;
  throw new Error(`${what}:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
}

async function readJson(path: string) {
  return JSON.parse(await Deno.readTextFile(path));
}

/** Builds `@tabhub/sdk` (sdk/build_package.ts) and checks that it carries VERSION. */
async function buildSdk(): Promise<string> {
  await buildSdkPackage(SDK_OUT_DIR);
  const pkg = await readJson(join(SDK_OUT_DIR, "package.json"));
  check("The SDK package", versionMismatches([{ path: "@tabhub/sdk", version: pkg.version }]));
  console.log(`  @tabhub/sdk@${pkg.version}: ${rel(SDK_OUT_DIR)}`);
  return SDK_OUT_DIR;
}

function describe(outcome: CompileOutcome): string {
  if (outcome.status === "built") return `built (dist/${outcome.task.slice("compile:".length)})`;
  return `${outcome.status}: ${outcome.reason}`;
}

export async function release(): Promise<void> {
  console.log(`Release ${VERSION}`);
  check("Versions differ", versionMismatches(await repositoryVersions(ROOT)));
  console.log("  versions: every package, deno.json and the extension manifest say " + VERSION);
  const tasks = (await readJson(join(ROOT, "deno.json"))).tasks as Record<string, string>;
  const readme = await Deno.readTextFile(join(ROOT, "README.md"));
  check("Permission flags differ from cli/server/deno_permissions.ts", [
    ...flagMismatches(tasks),
    ...readmeMismatches(readme),
  ]);

  const hub = await buildHubPackage();
  const flags = await readJson(join(hub.outDir, "flags.json")) as WrapperFlags;
  check(
    "Permission flags differ from cli/server/deno_permissions.ts",
    flagMismatches(tasks, flags),
  );
  const targets = Object.values(TASKS_OF).flat().length;
  console.log(
    `  permission flags: identical in ${targets} tasks, the README's install commands and the ` +
      "npm launchers",
  );
  const template = await readJson(join(ROOT, "npm", "package_template.json"));
  console.log(
    `  @tabhub/hub@${hub.version}: ${rel(hub.outDir)} (${hub.files} files, ` +
      `${Math.round(hub.bytes / 1024)} KiB; runs on deno ${template.dependencies.deno})`,
  );
  if (Deno.version.deno !== template.dependencies.deno) {
    console.log(
      `  warning: this is Deno ${Deno.version.deno}; the package pins deno ` +
        `${template.dependencies.deno} (npm/package_template.json): test with that version.`,
    );
  }
  const sdkDir = await buildSdk();

  const failed: string[] = [];
  for (const task of COMPILE_TASKS) {
    const outcome = await runCompileTask(ROOT, task);
    console.log(`  ${task}: ${describe(outcome)}`);
    if (outcome.status === "failed") failed.push(`${task}: ${outcome.reason}`);
  }
  check("Compile tasks failed", failed);

  console.log("\nPublish (the SDK first: plugins depend on it):");
  console.log(`  npm publish ${rel(sdkDir)} --access public`);
  console.log(`  npm publish ${rel(hub.outDir)} --access public`);
}

if (import.meta.main) {
  try {
    await release();
  } catch (error) {
    console.error(`\nRelease failed. ${(error as Error).message}`);
    Deno.exit(1);
  }
}
