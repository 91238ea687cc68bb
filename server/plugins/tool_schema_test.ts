import { assertEquals } from "../../tests/helpers/assert.ts";
import { injectParameters, stripInjected } from "./tool_schema.ts";

const schema = {
  type: "object",
  properties: { query: { type: "string" } },
  required: ["query"],
};
const TWO = { work: "https://w.test", home: "https://h.test" };

const props = (s: Record<string, unknown>) =>
  s.properties as Record<string, Record<string, unknown>>;

Deno.test("injectParameters always adds an optional integer tabId of at least 1", () => {
  const result = injectParameters(schema, {});
  assertEquals([props(result).tabId.type, props(result).tabId.minimum], ["integer", 1]);
  assertEquals(result.required, ["query"]);
});

Deno.test("injectParameters keeps the tool's own properties", () => {
  assertEquals(props(injectParameters(schema, {})).query, { type: "string" });
});

Deno.test("injectParameters adds no instance parameter for zero or one instance", () => {
  const cases: Record<string, string>[] = [{}, { default: "https://a.test" }];
  for (const instances of cases) {
    const result = injectParameters(schema, instances);
    assertEquals("instance" in props(result), false);
    assertEquals(result.required, ["query"]);
  }
});

Deno.test("injectParameters adds a required instance enum for two or more instances", () => {
  const result = injectParameters(schema, TWO);
  assertEquals(props(result).instance.type, "string");
  assertEquals(props(result).instance.enum, ["work", "home"]);
  assertEquals(result.required, ["query", "instance"]);
});

Deno.test("the instance description names each instance with its URL", () => {
  const description = props(injectParameters(schema, TWO)).instance.description;
  assertEquals(description, "Which instance to use: work (https://w.test), home (https://h.test).");
});

Deno.test("injectParameters leaves required out when nothing is required", () => {
  const result = injectParameters({ type: "object", properties: {} }, {});
  assertEquals("required" in result, false);
});

Deno.test("injectParameters works on a schema without properties", () => {
  const result = injectParameters({ type: "object" }, TWO);
  assertEquals(Object.keys(props(result)), ["tabId", "instance"]);
  assertEquals(result.required, ["instance"]);
});

Deno.test("injectParameters keeps other schema keywords", () => {
  const result = injectParameters({ ...schema, additionalProperties: false, definitions: {} }, {});
  assertEquals([result.additionalProperties, result.definitions], [false, {}]);
});

Deno.test("injectParameters does not change the schema it is given", () => {
  const original = structuredClone(schema);
  injectParameters(schema, TWO);
  assertEquals(schema, original);
});

Deno.test("stripInjected splits tabId and instance off the tool input", () => {
  assertEquals(stripInjected({ query: "x", tabId: 7, instance: "work" }), {
    tabId: 7,
    instance: "work",
    input: { query: "x" },
  });
});

Deno.test("stripInjected leaves tabId and instance undefined when absent", () => {
  assertEquals(stripInjected({ query: "x" }), {
    tabId: undefined,
    instance: undefined,
    input: { query: "x" },
  });
});
