/// <reference lib="deno.ns" />
import { assert, assertEquals, assertMatch, assertThrows } from "../tests/helpers/assert.ts";
import { describePlugin, findUnrepresentable } from "./describe.ts";
import { definePlugin, defineTool, type ToolDefinition } from "./plugin.ts";
import { z } from "./zod.ts";

// deno-lint-ignore no-explicit-any
function tool(name: string, input: any, output?: z.ZodType): ToolDefinition<any, any> {
  return defineTool({ name, description: `Does ${name}`, input, output, handle: () => null });
}

/** A refusal of describePlugin: a plain Error whose name is "SchemaError". */
const isSchemaError = (error: unknown): error is Error =>
  error instanceof Error && error.name === "SchemaError";

/** The SchemaError message describePlugin throws for one tool. */
function refusal(t: ToolDefinition): string {
  try {
    describePlugin({ tools: [t] });
  } catch (error) {
    assert(isSchemaError(error), `expected a SchemaError, got ${error}`);
    return error.message;
  }
  throw new Error("describePlugin accepted the tool");
}

// --- JSON Schema output ---

Deno.test("describePlugin writes each tool's input as a JSON Schema object", () => {
  const getItems = tool(
    "get_items",
    z.object({ query: z.string().describe("Search text"), limit: z.number().int().optional() }),
  );
  const { tools } = describePlugin(definePlugin({ tools: [getItems] }));
  assertEquals(tools[0].inputSchema, {
    type: "object",
    properties: {
      query: { type: "string", description: "Search text" },
      limit: {
        type: "integer",
        minimum: Number.MIN_SAFE_INTEGER,
        maximum: Number.MAX_SAFE_INTEGER,
      },
    },
    required: ["query"],
  });
});

Deno.test("the JSON Schemas carry no $schema key", () => {
  const t = tool("get_items", z.object({ a: z.string() }), z.object({ n: z.number() }));
  const [entry] = describePlugin({ tools: [t] }).tools;
  assertEquals("$schema" in entry.inputSchema, false);
  assertEquals("$schema" in entry.outputSchema!, false);
});

Deno.test("the JSON Schemas use draft-7 keywords (definitions, not $defs)", () => {
  interface Node {
    name: string;
    children: Node[];
  }
  const node: z.ZodType<Node> = z.lazy(() =>
    z.object({ name: z.string(), children: z.array(node) })
  );
  const [entry] = describePlugin({ tools: [tool("get_tree", z.object({ tree: node }))] }).tools;
  assert("definitions" in entry.inputSchema);
  assertEquals("$defs" in entry.inputSchema, false);
});

Deno.test("a field with a default is optional in the input schema", () => {
  const [entry] = describePlugin({
    tools: [tool("get_items", z.object({ page: z.number().default(1), q: z.string() }))],
  }).tools;
  assertEquals(entry.inputSchema.required, ["q"]);
});

Deno.test("the output schema is present only when the tool declares one", () => {
  const withOutput = tool("a_tool", z.object({}), z.object({ ok: z.boolean() }));
  const withoutOutput = tool("b_tool", z.object({}));
  const [a, b] = describePlugin({ tools: [withOutput, withoutOutput] }).tools;
  assertEquals(a.outputSchema?.type, "object");
  assertEquals("outputSchema" in b, false);
});

Deno.test("displayName defaults to the tool name in words with a capital first letter", () => {
  const [entry] = describePlugin({ tools: [tool("get_items", z.object({}))] }).tools;
  assertEquals(entry.displayName, "Get items");
});

Deno.test("an explicit displayName and the description are kept", () => {
  const t = defineTool({
    name: "get_items",
    displayName: "Fetch things",
    description: "Lists the items",
    input: z.object({}),
    handle: () => [],
  });
  const [entry] = describePlugin({ tools: [t] }).tools;
  assertEquals([entry.name, entry.displayName, entry.description], [
    "get_items",
    "Fetch things",
    "Lists the items",
  ]);
});

// --- refusals ---

const refused: [string, z.ZodType, string, RegExp][] = [
  ["a .transform()", z.string().transform((s) => s.length), "text", /\.transform\(\)/],
  ["z.preprocess", z.preprocess((v) => String(v), z.string()), "text", /z\.preprocess\(\)/],
  ["a .pipe()", z.string().pipe(z.string().min(1)), "text", /\.pipe\(\)/],
  ["z.date()", z.date(), "when", /z\.date\(\)/],
  ["z.map()", z.map(z.string(), z.number()), "counts", /z\.map\(\)/],
  ["z.custom()", z.custom<string>(), "thing", /z\.custom\(\)/],
  ["z.bigint()", z.bigint(), "big", /z\.bigint\(\)/],
];

for (const [what, schema, field, pattern] of refused) {
  Deno.test(`describePlugin refuses ${what} and names the tool and field`, () => {
    const message = refusal(tool("do_it", z.object({ [field]: schema })));
    assertMatch(message, /^Tool "do_it": input field /);
    assertMatch(message, new RegExp(`field "${field}" uses`));
    assertMatch(message, pattern);
    assertMatch(message, /JSON Schema cannot express/);
  });
}

Deno.test("a refused type nested in an object names the dotted path", () => {
  const input = z.object({ filters: z.object({ since: z.date() }) });
  assertMatch(
    refusal(tool("list_items", input)),
    /Tool "list_items": input field "filters\.since"/,
  );
});

Deno.test("a refused type inside an optional object keeps the dotted path", () => {
  const input = z.object({ filters: z.object({ since: z.date().optional() }).optional() });
  assertMatch(refusal(tool("list_items", input)), /field "filters\.since" uses z\.date\(\)/);
});

Deno.test("a refused type inside an array names the array and the element field", () => {
  const input = z.object({ rows: z.array(z.object({ id: z.bigint() })) });
  assertMatch(refusal(tool("list_items", input)), /field "rows\.?\[\]\.id" uses z\.bigint\(\)/);
});

Deno.test("a refused type in a record value, union or nullable is found", () => {
  const record = z.object({ byKey: z.record(z.string(), z.map(z.string(), z.string())) });
  const union = z.object({ at: z.union([z.string(), z.date()]) });
  const nullable = z.object({ at: z.custom<string>().nullable() });
  assertMatch(refusal(tool("a_tool", record)), /field "byKey\.\*" uses z\.map\(\)/);
  assertMatch(refusal(tool("a_tool", union)), /field "at" uses z\.date\(\)/);
  assertMatch(refusal(tool("a_tool", nullable)), /field "at" uses z\.custom\(\)/);
});

Deno.test("a refused type in the output schema is reported as an output field", () => {
  const t = tool("a_tool", z.object({}), z.object({ when: z.date() }));
  assertMatch(refusal(t), /Tool "a_tool": output field "when" uses z\.date\(\)/);
});

Deno.test("a non-object input is refused with a hint to use z.object", () => {
  assertMatch(
    refusal(tool("a_tool", z.string())),
    /Tool "a_tool": input must be a z\.object\(\{\.\.\.\}\) \(use z\.object\(\{\}\) for none\)/,
  );
});

Deno.test("an object input wrapped in a transform is refused as a non-object input", () => {
  const input = z.object({ a: z.string() }).transform((v) => v.a);
  assertMatch(refusal(tool("a_tool", input)), /input must be a z\.object/);
});

Deno.test("a plugin without a tools array is refused", () => {
  assertThrows(
    () => describePlugin({} as never),
    (e: Error) => isSchemaError(e) && /export default definePlugin/.test(e.message),
  );
  assertThrows(() => describePlugin(undefined as never), (e: Error) => isSchemaError(e));
});

// --- findUnrepresentable ---

Deno.test("findUnrepresentable returns undefined for a plain schema", () => {
  const input = z.object({ a: z.string(), b: z.array(z.number()), c: z.enum(["x", "y"]) });
  assertEquals(findUnrepresentable(input), undefined);
});

Deno.test("findUnrepresentable stops on a recursive z.lazy without looping", () => {
  interface Node {
    name: string;
    children: Node[];
  }
  const node: z.ZodType<Node> = z.lazy(() =>
    z.object({ name: z.string(), children: z.array(node) })
  );
  assertEquals(findUnrepresentable(z.object({ tree: node })), undefined);
});

Deno.test("findUnrepresentable finds a refused type behind a recursive z.lazy", () => {
  interface Node {
    at: Date;
    children: Node[];
  }
  const node: z.ZodType<Node> = z.lazy(() => z.object({ children: z.array(node), at: z.date() }));
  assertEquals(findUnrepresentable(z.object({ tree: node }))?.path, "tree.at");
});

Deno.test("findUnrepresentable names the whole input when the root is refused", () => {
  assertEquals(findUnrepresentable(z.date())?.path, "(the whole input)");
});

Deno.test("findUnrepresentable ignores values that are not zod schemas", () => {
  assertEquals(findUnrepresentable({ not: "zod" }), undefined);
  assertEquals(findUnrepresentable(undefined), undefined);
});

// --- declared ---

Deno.test("declared holds only the plugin fields that were set", () => {
  const plugin = definePlugin({
    name: "foo",
    urlPatterns: ["*://foo.test/*"],
    displayName: undefined,
    isReady: () => true,
    tools: [],
  });
  assertEquals(describePlugin(plugin).declared, { name: "foo", urlPatterns: ["*://foo.test/*"] });
});

Deno.test("declared is empty for a plugin that declares nothing about itself", () => {
  assertEquals(describePlugin({ tools: [] }), { declared: {}, tools: [] });
});
