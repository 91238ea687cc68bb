import { assertEquals } from "../../tests/helpers/assert.ts";
import { BROWSER_METHOD_NAMES } from "../../protocol/browser_methods/mod.ts";
import { BROWSER_TOOLS, registerBrowserTools } from "./mod.ts";
import SNAPSHOT from "./_input_schemas.json" with { type: "json" };

// The extension's handler table is checked against the same method table
// (extension/src/worker/browser_methods/mod_test.ts), so tools, methods and handlers agree.
Deno.test("every browser method is run by exactly one tool, and every tool names a method", () => {
  const methods = BROWSER_TOOLS.map((tool) => tool.method);
  assertEquals(new Set(methods).size, methods.length, "two tools share a method");
  assertEquals([...methods].sort(), [...BROWSER_METHOD_NAMES].sort());
});

// _input_schemas.json was written from the declarations before their input schemas moved to
// protocol/browser_methods/: what clients see in GET /tools and tools/list must not change by
// accident. Change the fixture together with a deliberate change of a tool's input.
Deno.test("each tool's method and JSON Schema are those of the snapshot, in the same order", () => {
  const now = Object.fromEntries(
    registerBrowserTools().map((t) => [t.name, { method: t.method, inputSchema: t.inputSchema }]),
  );
  assertEquals(now, SNAPSHOT);
  assertEquals(JSON.stringify(now, null, 2), JSON.stringify(SNAPSHOT, null, 2));
});
