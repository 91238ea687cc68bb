/** Small DOM helpers for tool handlers and readiness checks. */
import { ToolError } from "./tool_error.ts";

export interface WaitOptions {
  /** Give up after this many milliseconds (default 10 000). */
  timeoutMs?: number;
  /** How often to check (default 100 ms). */
  intervalMs?: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Resolves with the first truthy value `check` returns; throws a `TIMEOUT` ToolError when none
 * comes within the time limit. `what` names the awaited thing in that error.
 */
export async function waitFor<T>(
  check: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  options: WaitOptions & { what?: string } = {},
): Promise<T> {
  const { timeoutMs = 10_000, intervalMs = 100, what = "the condition" } = options;
  const deadline = Date.now() + timeoutMs;
  while (true) {
    const value = await check();
    if (value) return value;
    if (Date.now() >= deadline) {
      throw new ToolError(`Timed out after ${timeoutMs} ms waiting for ${what}`, {
        code: "TIMEOUT",
        category: "timeout",
      });
    }
    await sleep(Math.min(intervalMs, Math.max(0, deadline - Date.now())));
  }
}

/**
 * Waits until an element matching `selector` exists (and, with `visible`, has a size) and returns
 * it. An invalid selector fails at once with a `validation` ToolError.
 */
export async function waitForSelector<E extends Element = Element>(
  selector: string,
  options: WaitOptions & { visible?: boolean; root?: ParentNode } = {},
): Promise<E> {
  const root = options.root ?? document;
  try {
    root.querySelector(selector);
  } catch {
    throw new ToolError(`"${selector}" is not a valid CSS selector`, {
      code: "INVALID_SELECTOR",
      category: "validation",
    });
  }
  return await waitFor(() => {
    const element = root.querySelector<E>(selector);
    if (!element) return undefined;
    if (options.visible) {
      const rect = element.getBoundingClientRect();
      if (rect.width === 0 && rect.height === 0) return undefined;
    }
    return element;
  }, { ...options, what: `an element matching "${selector}"` });
}
