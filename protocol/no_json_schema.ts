/**
 * An esbuild plugin that leaves zod's JSON Schema generator out of the code that runs in the
 * browser: the extension's bundles and plugin adapters. JSON Schemas are made on the Deno side
 * (the hub for the contract's tools, `hub-plugin build` for a plugin's `tools.json`); in the
 * browser schemas only parse, yet zod's classic API links the generator (`toJSONSchema` and the
 * per-type processors, about 18 KB minified) into every schema class.
 *
 * Its two modules are replaced by stubs with the same export names, read from the real modules, so
 * a zod release that renames or adds an export still builds. A stub called at run time throws and
 * says why (`z.toJSONSchema`, `schema.toJSONSchema()`, and the derived `minLength`/`format`
 * getters); building a schema only stores them, so schemas build, default and refuse as before.
 * If zod moves the generator elsewhere, nothing matches and the bundle is only larger again.
 *
 * It takes the caller's esbuild, so this contract folder imports no npm package for it.
 */
import type * as Esbuild from "esbuild";

/**
 * The generator's modules inside zod (v4 core), in a node_modules folder (`zod/v4/core/…`) or in
 * Deno's npm cache, which puts the version in between (`zod/4.6.7/v4/core/…`).
 */
export const JSON_SCHEMA_MODULES =
  /[\\/]zod[\\/](?:[^\\/]+[\\/])?v4[\\/]core[\\/](json-schema-processors|to-json-schema)\.js$/;

/**
 * A module with the same exports. Each throws `message` when called, except the factories
 * (`create…`, such as `createToJSONSchemaMethod`): zod calls those while it builds a schema, so
 * they return a function that throws when called.
 */
export function stubModule(names: string[], message: string): string {
  const lines = [
    `const unavailable = () => { throw new Error(${JSON.stringify(message)}); };`,
    "const factory = () => unavailable;",
  ];
  for (const name of names) {
    const value = name.startsWith("create") ? "factory" : "unavailable";
    lines.push(
      name === "default"
        ? `export default ${value};`
        : `export { ${value} as ${JSON.stringify(name)} };`,
    );
  }
  return lines.join("\n");
}

/** The plugin; `where` names the bundle in the error a stub throws ("plugin adapters"). */
export function noJsonSchema(esbuild: typeof Esbuild, where: string): Esbuild.Plugin {
  const message = `zod's JSON Schema generator and check getters (minLength, isInt, format, …) ` +
    `are left out of ${where}; JSON Schemas are made at build time.`;
  /** The names a module exports, as esbuild reads them. */
  const exportNames = async (path: string) => {
    const result = await esbuild.build({
      entryPoints: [path],
      bundle: false,
      write: false,
      format: "esm",
      metafile: true,
      logLevel: "silent",
    });
    return Object.values(result.metafile!.outputs).flatMap((output) => output.exports);
  };
  return {
    name: "no-zod-json-schema",
    setup(build) {
      build.onLoad({ filter: JSON_SCHEMA_MODULES }, async (args) => ({
        contents: stubModule(await exportNames(args.path), message),
        loader: "js",
      }));
    },
  };
}
