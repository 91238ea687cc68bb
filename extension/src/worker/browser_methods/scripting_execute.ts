/**
 * `scripting.execute` (browser_execute_script): evaluates code in the page's MAIN world like the
 * DevTools console: the value of the last expression or statement, awaited when it is a promise;
 * code using `await` runs as the body of an async function (use `return`). The value comes back
 * as JSON (functions and DOM nodes as descriptions). Pages whose Content-Security-Policy forbids
 * `eval` cannot run code strings; that fails with SCRIPT_BLOCKED.
 */
import { hubError } from "../../../../protocol/errors.ts";
import { type BrowserMethod, firstResult, targetTab } from "./browser_method.ts";

/**
 * The script's answer, in the call contract's envelope (`CallResult`); its error is the code and
 * the script's own words, and the worker words the agent's message.
 */
type Outcome =
  | { ok: true; value: unknown }
  | { ok: false; error: { code: "SCRIPT_BLOCKED" | "SCRIPT_ERROR"; message: string } };

/** Runs in the page; self-contained. */
async function evaluate(code: string): Promise<Outcome> {
  const indirectEval = eval;
  const describe = (error: unknown) =>
    error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  const toJson = (value: unknown): unknown => {
    const seen = new WeakSet();
    const text = JSON.stringify(value, (_key, v) => {
      if (typeof v === "function") return `[function ${v.name || "anonymous"}]`;
      if (typeof v === "bigint") return v.toString();
      if (typeof v === "object" && v !== null) {
        if (typeof (v as Node).nodeType === "number") return `[DOM node ${(v as Node).nodeName}]`;
        if (seen.has(v)) return "[circular]";
        seen.add(v);
      }
      return v;
    });
    return text === undefined ? null : JSON.parse(text);
  };
  let value: unknown;
  try {
    try {
      value = indirectEval(code);
    } catch (error) {
      if (!(error instanceof SyntaxError) || !/\bawait\b/.test(code)) throw error;
      value = indirectEval(`(async () => {\n${code}\n})()`);
    }
    return { ok: true, value: toJson(await value) };
  } catch (error) {
    const blocked = error instanceof EvalError ||
      /Content Security Policy|unsafe-eval/i.test(String((error as Error)?.message));
    const code = blocked ? "SCRIPT_BLOCKED" : "SCRIPT_ERROR";
    return { ok: false, error: { code, message: describe(error) } };
  }
}

export const scriptingExecute: BrowserMethod<"scripting.execute"> = async (input, { calls }) => {
  const tab = await targetTab(input);
  const tabId = tab.id!;
  const { code } = input;
  const outcome = await calls.run(tabId, "browser_execute_script", async () =>
    firstResult<Outcome>(
      await chrome.scripting.executeScript({
        target: { tabId },
        world: "MAIN",
        func: evaluate,
        args: [code],
      }),
    ));
  if (outcome.ok) return { tabId, value: outcome.value };
  if (outcome.error.code === "SCRIPT_BLOCKED") {
    throw hubError(
      "SCRIPT_BLOCKED",
      `The page in tab ${tabId} (${tab.url}) forbids running code strings (its ` +
        "Content-Security-Policy has no 'unsafe-eval'). Use a plugin tool or " +
        "browser_click_element there instead.",
    );
  }
  throw hubError("SCRIPT_ERROR", `The script threw ${outcome.error.message}`);
};
