/**
 * Where a JSON file is broken: " at line L, column C (what is wrong)". V8's JSON.parse does not
 * always say where, so the spot comes from jsonc-parser, which reports offsets. jsonc-parser is a
 * CommonJS package: loading it starts Deno's Node compatibility layer (about 20 ms), which a hub
 * start otherwise does without. So it is loaded only when text turns out to be broken
 * (`withJsonErrors`), and a running hub preloads it; until it is loaded, `describeJsonError` gives
 * V8's own message.
 */
import { loadOnce } from "../cache/load_once.ts";
import { jsonDepthProblem } from "./json_depth.ts";

type JsoncParser = typeof import("jsonc-parser");

let parser: JsoncParser | undefined;

/** Loads the locator; a failed load is tried again on the next call. */
export const loadJsonErrors: () => Promise<void> = loadOnce(() =>
  import("jsonc-parser").then((module) => void (parser = module))
);

/**
 * Runs `parse`; when it throws before the locator was loaded, loads it and runs `parse` again, so
 * that the error names the spot. Valid text is parsed once.
 */
export async function withJsonErrors<T>(parse: () => T): Promise<T> {
  try {
    return parse();
  } catch (error) {
    if (parser) throw error;
    await loadJsonErrors().catch(() => { // V8's message then
      throw error;
    });
    return parse();
  }
}

/**
 * " at line L, column C (what is wrong)" for text that JSON.parse rejected, or ` (<v8Message>)`
 * when the locator is not loaded or finds nothing, or `(it nests deeper than …)` for text nested too
 * deeply to be walked. With `jsonc`, for text read as JSON with
 * comments and trailing commas (as VS Code writes it).
 */
export function describeJsonError(
  text: string,
  v8Message: string,
  options: { jsonc?: boolean } = {},
): string {
  if (!parser) return ` (${v8Message})`;
  // jsonc-parser recurses per level: too deep a text is described by its depth, not parsed.
  const deep = jsonDepthProblem(text);
  if (deep) return ` (it ${deep})`;
  const errors: import("jsonc-parser").ParseError[] = [];
  const jsonc = options.jsonc === true;
  parser.parse(text, errors, { disallowComments: !jsonc, allowTrailingComma: jsonc });
  if (errors.length === 0) return ` (${v8Message})`;
  const { offset, error } = errors[0];
  const before = text.slice(0, offset).split("\n");
  const problem = parser.printParseErrorCode(error).replace(/([a-z])([A-Z])/g, "$1 $2")
    .toLowerCase();
  return ` at line ${before.length}, column ${before[before.length - 1].length + 1} (${problem})`;
}
