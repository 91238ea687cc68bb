/// <reference lib="deno.ns" />
import * as esbuild from "esbuild";
import { fileURLToPath } from "node:url";
import { assertEquals, assertThrows } from "../tests/helpers/assert.ts";
import { JSON_SCHEMA_MODULES, noJsonSchema, stubModule } from "./no_json_schema.ts";

const WHERE = "test bundles";

const zodPath = fileURLToPath(import.meta.resolve("zod"));

/** Bundles `source` (which may import zod) with the plugin and imports the result. */
async function bundleAndImport(source: string) {
  try {
    const result = await esbuild.build({
      stdin: { contents: source, resolveDir: fileURLToPath(new URL(".", import.meta.url)) },
      bundle: true,
      write: false,
      format: "esm",
      logLevel: "silent",
      plugins: [{
        name: "zod",
        setup(build) {
          build.onResolve({ filter: /^zod$/ }, () => ({ path: zodPath }));
        },
      }, noJsonSchema(esbuild, WHERE)],
    });
    const code = result.outputFiles[0].text;
    return { code, module: await import(`data:text/javascript,${encodeURIComponent(code)}`) };
  } finally {
    await esbuild.stop();
  }
}

Deno.test("the pattern names zod's two generator modules, on either path separator", () => {
  for (const name of ["json-schema-processors", "to-json-schema"]) {
    assertEquals(JSON_SCHEMA_MODULES.test(`/x/zod/v4/core/${name}.js`), true, name);
    assertEquals(JSON_SCHEMA_MODULES.test(`C:\\x\\zod\\v4\\core\\${name}.js`), true, name);
    const denoCache = `/root/.cache/deno/npm/registry.npmjs.org/zod/4.6.7/v4/core/${name}.js`;
    assertEquals(JSON_SCHEMA_MODULES.test(denoCache), true, name);
  }
  assertEquals(JSON_SCHEMA_MODULES.test("/x/zod/v4/core/schemas.js"), false);
  assertEquals(JSON_SCHEMA_MODULES.test("/x/zod/a/b/v4/core/to-json-schema.js"), false);
});

Deno.test("a stub keeps every export name; each throws, a factory's product too", async () => {
  const code = stubModule(["toJSONSchema", "createToJSONSchemaMethod", "default"], "not here");
  const stub = await import(`data:text/javascript,${encodeURIComponent(code)}`);
  assertEquals(Object.keys(stub).sort(), ["createToJSONSchemaMethod", "default", "toJSONSchema"]);
  assertThrows(() => stub.toJSONSchema({}), Error, "not here");
  assertThrows(() => stub.default(), Error, "not here");
  const made = stub.createToJSONSchemaMethod({});
  assertThrows(() => made(), Error, "not here");
});

Deno.test("zod bundled without the generator still builds, defaults and refuses like zod", async () => {
  const { code, module } = await bundleAndImport(`
    import * as z from "zod";
    const schema = z.object({ name: z.string().min(1).describe("a name"), n: z.number().int().default(3) });
    export const parsed = schema.parse({ name: "a" });
    export const refused = schema.safeParse({ name: "" }).error?.issues[0]?.code;
    export const standard = typeof schema["~standard"].validate;
    export function generate() { return z.toJSONSchema(schema); }
    export function method() { return schema.toJSONSchema(); }
  `);
  assertEquals(module.parsed, { name: "a", n: 3 });
  assertEquals(module.refused, "too_small");
  assertEquals(module.standard, "function");
  assertThrows(() => module.generate(), Error, "left out of test bundles");
  assertThrows(() => module.method(), Error, "left out of test bundles");
  assertEquals(code.includes("draft-2020-12"), false, "the generator's JSON Schema dialect is in");
});
