/** Test fixture: a method's input as `dispatchBrowserTool` hands it to the handler (parsed, defaulted). */
import {
  type BrowserInput,
  type BrowserMethodName,
  parseBrowserInput,
} from "../../../../protocol/browser_methods/mod.ts";

export function parsedInput<M extends BrowserMethodName>(
  method: M,
  input: Record<string, unknown> = {},
): BrowserInput<M> {
  const parsed = parseBrowserInput(method, input);
  if (!parsed.ok) throw new Error(`${method} refused ${JSON.stringify(input)}: ${parsed.problems}`);
  return parsed.input;
}
