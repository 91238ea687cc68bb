/**
 * The `@tabhub/sdk` version a plugin declares, checked against the SDK this hub-plugin builds
 * with. A plugin declares it in deno.json (`"@tabhub/sdk": "npm:@tabhub/sdk@<range>"`, for its
 * editor and `deno check`) and/or in package.json (`peerDependencies`, `dependencies` or
 * `devDependencies`). The adapter always bundles hub-plugin's own SDK (bundle.ts), so a range that
 * excludes it is refused when the SDK line differs (the plugin was written for an incompatible
 * SDK) and only warned about when it asks for a later version of the same line. A path or any
 * other mapping (a checkout, a test fixture) and no declaration at all (older projects) build with
 * the bundled SDK unchecked.
 */
import { join } from "node:path";
// @ts-types="@types/semver"
import semver from "semver";
import { parse, type ParseError, printParseErrorCode } from "jsonc-parser";
import { UserError } from "../core/cli/user_error.ts";
import { SDK_VERSION, sdkCompatLine, sdkRange } from "../protocol/version.ts";

export const SDK_PACKAGE = "@tabhub/sdk";
/** The SDK's import name before it was published; still bundled, deprecated. */
export const LEGACY_SDK_NAME = "@hub/sdk";

const PACKAGE_FIELDS = ["peerDependencies", "dependencies", "devDependencies"] as const;
const NPM_SPECIFIER = /^npm:@tabhub\/sdk(?:@([^/]*))?(?:\/.*)?$/;

/** One place a plugin names the SDK. */
export interface SdkDeclaration {
  /** The file it is in (`deno.json`, `package.json`). */
  file: string;
  /** Where in the file, for messages: `imports["@tabhub/sdk"]`, `peerDependencies`. */
  where: string;
  /** The text as written. */
  spec: string;
  /** The npm version range; undefined when the spec names no version hub-plugin can check. */
  range?: string;
}

/** The SDK declarations in a deno.json's `imports` (`file`: its name, for messages). */
export function denoJsonDeclarations(config: unknown, file = "deno.json"): SdkDeclaration[] {
  const imports = (config as { imports?: unknown } | null)?.imports;
  if (!imports || typeof imports !== "object") return [];
  const found: SdkDeclaration[] = [];
  for (const name of [SDK_PACKAGE, LEGACY_SDK_NAME]) {
    const spec = (imports as Record<string, unknown>)[name];
    if (typeof spec !== "string") continue;
    const match = NPM_SPECIFIER.exec(spec);
    const range = match ? (match[1] || "*") : undefined;
    found.push({ file, where: `imports["${name}"]`, spec, range });
  }
  return found;
}

/** The SDK declarations in a package.json: an npm range, or an `npm:` alias with one. */
export function packageJsonDeclarations(pkg: unknown, file = "package.json"): SdkDeclaration[] {
  const found: SdkDeclaration[] = [];
  for (const field of PACKAGE_FIELDS) {
    const deps = (pkg as Record<string, unknown> | null)?.[field];
    const spec = deps && typeof deps === "object"
      ? (deps as Record<string, unknown>)[SDK_PACKAGE]
      : undefined;
    if (typeof spec !== "string") continue;
    const alias = NPM_SPECIFIER.exec(spec);
    const range = alias ? (alias[1] || "*") : semver.validRange(spec) === null ? undefined : spec;
    found.push({ file, where: field, spec, range });
  }
  return found;
}

/**
 * Checks each declared range against `sdkVersion`. Throws a UserError when one excludes every
 * version of the SDK's line; returns warnings (a later version of the same line, the old name).
 */
export function checkSdkDeclarations(
  declarations: SdkDeclaration[],
  sdkVersion: string = SDK_VERSION,
): string[] {
  const warnings: string[] = [];
  for (const declaration of declarations) {
    if (declaration.where.includes(LEGACY_SDK_NAME)) {
      warnings.push(
        `${declaration.file} maps the old name ${LEGACY_SDK_NAME}, which still builds but is ` +
          `deprecated: map "${SDK_PACKAGE}": "npm:${SDK_PACKAGE}@${sdkRange(sdkVersion)}" ` +
          `instead and import from "${SDK_PACKAGE}" in your source.`,
      );
    }
    const warning = checkRange(declaration, sdkVersion);
    if (warning) warnings.push(warning);
  }
  return warnings;
}

function checkRange(declaration: SdkDeclaration, sdkVersion: string): string | undefined {
  const { file, where, spec, range } = declaration;
  if (range === undefined) return undefined;
  if (semver.validRange(range) === null) {
    throw new UserError(
      `${file} ${where} is ${
        JSON.stringify(spec).slice(0, 120)
      }, which is not a valid version range: use a range such as ` +
        `"${sdkRange(sdkVersion)}" (the SDK this hub-plugin builds with is ${sdkVersion}).`,
    );
  }
  const options = { includePrerelease: true };
  if (semver.satisfies(sdkVersion, range, options)) return undefined;
  const lowest = semver.minVersion(range)?.version;
  if (lowest && sdkCompatLine(lowest) === sdkCompatLine(sdkVersion)) {
    return `This plugin asks for ${SDK_PACKAGE} ${range} (${file}), and this hub-plugin builds ` +
      `with ${sdkVersion}, an earlier version of the same line: if the build or a tool misses an ` +
      `SDK feature, update hub (\`hub update\`).`;
  }
  const fix = semver.gtr(sdkVersion, range, options)
    ? `move the plugin to this SDK: set the range in ${file} to "${sdkRange(sdkVersion)}" and ` +
      `fix what the new SDK changed, or build it with an older hub`
    : `update hub (\`hub update\`) or change the range in ${file}`;
  throw new UserError(
    `This plugin needs ${SDK_PACKAGE} ${range} (${file} ${where}), but this hub-plugin builds with ` +
      `${sdkVersion}: ${fix}.`,
  );
}

/** The JSON (comments allowed, as Deno allows them) of `path`, or undefined when it is missing. */
async function readJsonc(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw new UserError(`Cannot read ${path}: ${(error as Error).message}`);
  }
  const errors: ParseError[] = [];
  const value = parse(text, errors, { allowTrailingComma: true });
  if (errors.length > 0) {
    const { offset, error } = errors[0];
    const line = text.slice(0, offset).split("\n").length;
    throw new UserError(
      `${path} is not valid JSON at line ${line} (${printParseErrorCode(error)}): fix it, then ` +
        `build again.`,
    );
  }
  return value;
}

/** Every SDK declaration of the project in `dir`: deno.json (or deno.jsonc) and package.json. */
export async function readSdkDeclarations(dir: string): Promise<SdkDeclaration[]> {
  const found: SdkDeclaration[] = [];
  for (const name of ["deno.json", "deno.jsonc"]) {
    const config = await readJsonc(join(dir, name));
    if (config !== undefined) {
      found.push(...denoJsonDeclarations(config, name));
      break;
    }
  }
  found.push(...packageJsonDeclarations(await readJsonc(join(dir, "package.json"))));
  return found;
}
