import { assertEquals } from "../tests/helpers/assert.ts";
import { fieldsOf, typeOf } from "./schema_summary.ts";

Deno.test("typeOf summarizes common JSON Schema shapes", () => {
  assertEquals(typeOf({ type: "string" }), "string");
  assertEquals(typeOf({ enum: ["a", "b"] }), '"a" | "b"');
  assertEquals(typeOf({ type: "array", items: { type: "number" } }), "number[]");
  assertEquals(typeOf({ anyOf: [{ type: "string" }, { type: "null" }] }), "string | null");
  assertEquals(typeOf({ type: "integer", minimum: 1, maximum: 9007199254740991 }), "integer (1–)");
  assertEquals(typeOf({ type: "integer", minimum: 1, maximum: 5 }), "integer (1–5)");
  assertEquals(typeOf({ const: 3 }), "3");
  assertEquals(typeOf(undefined), "any");
});

Deno.test("fieldsOf lists properties with required flags and descriptions", () => {
  assertEquals(
    fieldsOf({
      type: "object",
      properties: { q: { type: "string", description: "text" }, n: { type: "number" } },
      required: ["q"],
    }),
    [
      { name: "q", type: "string", required: true, description: "text" },
      { name: "n", type: "number", required: false },
    ],
  );
  assertEquals(fieldsOf(undefined), []);
});
