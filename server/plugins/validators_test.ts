import { assert, assertEquals } from "../../tests/helpers/assert.ts";
import { MAX_PROBLEM_CHARS, MAX_PROBLEMS } from "./validation_problems.ts";
import { loadValidators, ValidatorCache } from "./validators.ts";

// The pipeline loads ajv before the first call; these tests use the cache directly.
await loadValidators();

const schema = {
  type: "object",
  properties: {
    query: { type: "string" },
    mode: { type: "string", enum: ["fast", "slow"] },
    limit: { type: "integer" },
    filters: {
      type: "object",
      properties: { since: { type: "string" } },
      required: ["since"],
      additionalProperties: false,
    },
  },
  required: ["query"],
  additionalProperties: false,
};

const validate = (input: unknown) => new ValidatorCache().validator(schema).validate(input);

Deno.test("valid input passes with no errors", () => {
  assertEquals(validate({ query: "x", mode: "fast", limit: 3, filters: { since: "2024" } }), {
    valid: true,
    errors: [],
  });
});

Deno.test("a missing required field is reported as 'is required'", () => {
  assertEquals(validate({}), { valid: false, errors: ["query: is required"] });
});

Deno.test("a missing nested required field names its dotted path", () => {
  assertEquals(validate({ query: "x", filters: {} }).errors, ["filters.since: is required"]);
});

Deno.test("a value outside an enum lists the allowed values", () => {
  assertEquals(validate({ query: "x", mode: "medium" }).errors, [
    'mode: must be one of "fast", "slow"',
  ]);
});

Deno.test("a value of the wrong type names the field and the expected type", () => {
  assertEquals(validate({ query: 5 }).errors, ["query: must be string"]);
  assertEquals(validate({ query: "x", limit: 1.5 }).errors, ["limit: must be integer"]);
});

Deno.test("an unknown field is reported as not a known field", () => {
  assertEquals(validate({ query: "x", extra: 1 }).errors, ["extra: is not a known field"]);
  assertEquals(validate({ query: "x", filters: { since: "a", until: "b" } }).errors, [
    "filters.until: is not a known field",
  ]);
});

Deno.test("input that is not an object is reported against 'input'", () => {
  assertEquals(validate("text").errors, ["input: must be object"]);
});

Deno.test("every problem is reported, not just the first", () => {
  assertEquals(validate({ mode: "x", extra: true }).errors.length, 3);
});

Deno.test("string formats are not checked by the hub", () => {
  const cache = new ValidatorCache();
  const { validate } = cache.validator({ type: "string", format: "email" });
  assertEquals(validate("not an email").valid, true);
});

Deno.test("a validator is compiled on first use, not when it is created", () => {
  const cache = new ValidatorCache();
  const { validate } = cache.validator(schema);
  assertEquals(cache.compiledCount, 0);
  validate({ query: "x" });
  validate({ query: "y" });
  assertEquals(cache.compiledCount, 1);
});

Deno.test("equal schemas share one key and one compiled validator", () => {
  const cache = new ValidatorCache();
  const a = cache.validator(schema);
  const b = cache.validator(structuredClone(schema));
  a.validate({ query: "x" });
  b.validate({ query: "x" });
  assertEquals([a.key === b.key, cache.compiledCount], [true, 1]);
});

Deno.test("retain keeps compiled validators only for the kept keys", () => {
  const cache = new ValidatorCache();
  const kept = cache.validator(schema);
  const dropped = cache.validator({ type: "object", properties: {} });
  kept.validate({ query: "x" });
  dropped.validate({});
  assertEquals(cache.compiledCount, 2);
  cache.retain(new Set([kept.key, "never-compiled"]));
  assertEquals(cache.compiledCount, 1);
  cache.validator(schema).validate({ query: "x" });
  assertEquals(cache.compiledCount, 1);
});

Deno.test("retain with no kept keys drops every compiled validator", () => {
  const cache = new ValidatorCache();
  cache.validator(schema).validate({ query: "x" });
  cache.retain(new Set());
  assertEquals(cache.compiledCount, 0);
});

const tagsSchema = {
  type: "object",
  properties: { tags: { type: "array", items: { type: "string" } } },
};

Deno.test("many problems are reported as a handful, then how many more", () => {
  const { validate } = new ValidatorCache().validator(tagsSchema);
  const result = validate({ tags: new Array(100).fill(0) });
  assertEquals(result.errors.length, MAX_PROBLEMS + 1);
  assertEquals(result.errors[0], "tags.0: must be string");
  assertEquals(result.errors.at(-1), `…and ${100 - MAX_PROBLEMS} more`);
});

Deno.test("a huge invalid input is reported by its first problem only", () => {
  const { validate } = new ValidatorCache().validator(tagsSchema);
  const result = validate({ tags: new Array(1_000_000).fill(0) });
  assertEquals(result, { valid: false, errors: ["tags.0: must be string"] });
});

Deno.test("a huge field name is cut in the report", () => {
  const { validate } = new ValidatorCache().validator(schema);
  const [error] = validate({ query: "x", ["k".repeat(100_000)]: 1 }).errors;
  assert(error.length <= MAX_PROBLEM_CHARS, `${error.length} characters`);
  assert(error.endsWith("…"));
});

Deno.test("loadValidators answers undefined once ajv is loaded, so calls await nothing", async () => {
  await loadValidators();
  assertEquals(loadValidators(), undefined);
});
