import { assertEquals, assertRejects } from "../../tests/helpers/assert.ts";
import { describeJsonError, loadJsonErrors, withJsonErrors } from "./json_errors.ts";

// First in this file: nothing has loaded jsonc-parser yet in this module graph.
Deno.test("before jsonc-parser is loaded, V8's message describes the error; a failed parse loads it", async () => {
  assertEquals(describeJsonError("{", "V8 says so"), " (V8 says so)");
  let runs = 0;
  const parse = (text: string) => () => {
    runs++;
    try {
      return JSON.parse(text);
    } catch (error) {
      throw new Error(`broken${describeJsonError(text, (error as Error).message)}`);
    }
  };
  assertEquals(await withJsonErrors(parse('{"a": 1}')), { a: 1 });
  assertEquals(runs, 1, "valid text is parsed once");
  assertEquals(describeJsonError("{", "V8 says so"), " (V8 says so)", "valid JSON loads nothing");
  await assertRejects(() => withJsonErrors(parse("{")), Error, "broken at line 1, column 2");
  assertEquals(runs, 3, "broken text is parsed again once the locator is loaded");
  assertEquals(describeJsonError("{", "x"), " at line 1, column 2 (close brace expected)");
});

Deno.test("describeJsonError locates errors V8 does not place", async () => {
  await loadJsonErrors();
  assertEquals(describeJsonError('{\n  "a": tru\n}', "x"), " at line 2, column 8 (invalid symbol)");
  assertEquals(
    describeJsonError('{"a": 1,}', "x"),
    " at line 1, column 9 (property name expected)",
  );
  assertEquals(describeJsonError("{\n", "x"), " at line 2, column 1 (close brace expected)");
  assertEquals(describeJsonError("", "x"), " at line 1, column 1 (value expected)");
});

Deno.test("describeJsonError with jsonc: comments and trailing commas are fine, the rest is placed", async () => {
  await loadJsonErrors();
  const text = '{\n  // a comment\n  "a": 1,\n  "b": tru,\n}';
  assertEquals(
    describeJsonError(text, "x", { jsonc: true }),
    " at line 4, column 8 (invalid symbol)",
  );
  assertEquals(
    describeJsonError('{"a": 1,}', "x", { jsonc: true }),
    " (x)",
    "a trailing comma alone is no error in JSON with comments",
  );
});
