import { Ajv } from "ajv";
import { assertEquals } from "../../tests/helpers/assert.ts";
import { buildSchemaCheck, SCHEMA_CHECK_FILE } from "./schema_check_build.ts";
import { validate } from "./_schema_check.js";

Deno.test("_schema_check.js is the build of ajv's draft-07 meta-schema (run: deno task build:schema-check)", async () => {
  assertEquals(await Deno.readTextFile(SCHEMA_CHECK_FILE), buildSchemaCheck());
});

Deno.test("the generated check agrees with ajv's validateSchema on good and broken schemas", () => {
  const ajv = new Ajv({ strict: false, validateFormats: false });
  const schemas: unknown[] = [
    { type: "object", properties: { q: { type: "string", minLength: 1 } }, required: ["q"] },
    {
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      additionalProperties: false,
    },
    { type: "object", properties: { n: { type: "integer", minimum: 0, maximum: 9 } } },
    { enum: [1, "a", null] },
    { anyOf: [{ type: "string" }, { type: "number" }] },
    {
      type: "object",
      properties: { tags: { type: "array", items: { type: "string" }, uniqueItems: true } },
    },
    { type: "strin" },
    { type: "object", properties: { q: { type: 3 } } },
    { type: "object", required: "q" },
    { minLength: -1 },
    { enum: [] },
    { anyOf: [] },
    { properties: [] },
    { type: ["string", "string"] },
    { enum: [{ a: 1, b: [2] }, { b: [2], a: 1 }] },
    { enum: [{ a: 1 }, { a: 2 }, [1], [1, 1]] },
    { required: ["q", "r", "q"] },
    true,
    false,
  ];
  for (const schema of schemas) {
    const expected = ajv.validateSchema(schema as object) as boolean;
    assertEquals(validate(schema), expected, JSON.stringify(schema));
    if (!expected) assertEquals((validate.errors?.length ?? 0) > 0, true, JSON.stringify(schema));
  }
  // ajv's validateSchema throws on these; the generated check says no.
  assertEquals([validate(null), validate("object"), validate(3)], [false, false, false]);
});
