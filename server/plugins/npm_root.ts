/**
 * Finds the global npm package folder, where plugin packages are installed: the one the npm
 * wrapper (`@tabhub/hub`) was installed in (`HUB_NPM_ROOT`, set by its launcher), else
 * `npm root -g`.
 */

import { npmRootFromEnv } from "../../core/packages/global_root.ts";

export { npmRootFromEnv };

export type NpmRoot = () => Promise<string>;

/**
 * The folder `fromEnv` names, else the answer of `npm root -g`, run once and remembered when it
 * succeeds; a failure is thrown each time (with what to do), so a later reload can succeed after
 * npm is fixed.
 */
export function npmRootFinder(
  run: (args: string[]) => Promise<string> = runNpm,
  fromEnv: () => string | undefined = npmRootFromEnv,
): NpmRoot {
  let cached: string | undefined;
  return async () => {
    const given = fromEnv();
    if (given) return given;
    if (cached) return cached;
    const out = (await run(["root", "-g"])).trim();
    if (!out) throw new Error('"npm root -g" printed nothing');
    cached = out;
    return out;
  };
}

async function runNpm(args: string[]): Promise<string> {
  let output: Deno.CommandOutput;
  try {
    output = await new Deno.Command("npm", { args, stdout: "piped", stderr: "piped" }).output();
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      throw new Error(
        "npm is not installed, so globally installed plugin packages cannot be found " +
          "(set HUB_SKIP_PKG_DISCOVERY=1 to skip them)",
      );
    }
    throw new Error(`Cannot run npm: ${(error as Error).message}`);
  }
  if (!output.success) {
    const err = new TextDecoder().decode(output.stderr).trim().split("\n").slice(-3).join(" ");
    throw new Error(`"npm ${args.join(" ")}" failed: ${err || `exit code ${output.code}`}`);
  }
  return new TextDecoder().decode(output.stdout);
}
