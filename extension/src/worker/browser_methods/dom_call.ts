/**
 * Runs one operation of the page-side DOM kit (extension/src/page/dom_kit.ts) in a tab: calls the
 * kit already in the tab's isolated world, and when it is not there yet (or is an older version)
 * injects `dom_kit.js` by file and calls again. Failures the kit reports become tool errors with
 * the kit's code.
 */
import type { ErrorCategory } from "../../../../protocol/errors.ts";
import { hubError } from "../../../../protocol/errors.ts";
import { CallFailure } from "../tab_calls.ts";
import {
  DOM_KIT_FILE,
  DOM_KIT_GLOBAL,
  DOM_KIT_VERSION,
  type DomOp,
  type KitOutcome,
} from "../../page/dom_kit_types.ts";
import type { DomAnswer } from "../../../../protocol/browser_methods/mod.ts";
import {
  firstResult,
  type MethodContext,
  type TabTarget,
  targetTab,
  toolFailure,
} from "./browser_method.ts";

/** The category of each error code the kit reports. */
export const KIT_ERROR_CATEGORIES: Record<string, ErrorCategory> = {
  INVALID_SELECTOR: "validation",
  ELEMENT_NOT_FOUND: "not_found",
  WAIT_TIMEOUT: "timeout",
  NOT_EDITABLE: "validation",
  NOT_A_SELECT: "validation",
  OPTION_NOT_FOUND: "not_found",
  OPTION_DISABLED: "validation",
  INVALID_KEY: "validation",
};

const MISSING = "KIT_MISSING";

/** Runs in the page's isolated world; self-contained (serialized by chrome.scripting). */
async function callKit(
  name: string,
  version: string,
  op: string,
  args: Record<string, unknown>,
): Promise<KitOutcome> {
  const kit = Reflect.get(globalThis, name) as
    | { version?: string; run?: (op: string, args: unknown) => Promise<KitOutcome> }
    | undefined;
  if (kit?.version !== version || typeof kit.run !== "function") {
    return { ok: false, reason: "KIT_MISSING", message: "" };
  }
  return await kit.run(op, args);
}

async function runInTab(tabId: number, op: DomOp, args: Record<string, unknown>) {
  const call = async () =>
    firstResult<KitOutcome>(
      await chrome.scripting.executeScript({
        target: { tabId },
        func: callKit,
        args: [DOM_KIT_GLOBAL, DOM_KIT_VERSION, op, args],
      }),
    );
  const outcome = await call();
  if (outcome.ok || outcome.reason !== MISSING) return outcome;
  await chrome.scripting.executeScript({ target: { tabId }, files: [DOM_KIT_FILE] });
  return await call();
}

/** A failed outcome as the error the agent sees. */
export function kitFailure(outcome: { reason: string; message: string }): CallFailure {
  if (outcome.reason === MISSING) {
    return new CallFailure(hubError(
      "EXTENSION_ERROR",
      `The page helper ${DOM_KIT_FILE} could not be installed in the tab. Run "hub start" to ` +
        "reinstall the extension, then reload it in chrome://extensions.",
    ));
  }
  const category = KIT_ERROR_CATEGORIES[outcome.reason] ?? "internal";
  return toolFailure(outcome.reason, outcome.message, category);
}

/**
 * Runs `op` with `args` in the target tab (input.tabId or the active tab) for `tool`; resolves
 * with the tab id and the operation's value, or throws the tool's error.
 */
export async function domCall(
  input: TabTarget,
  { calls }: MethodContext,
  tool: string,
  op: DomOp,
  args: Record<string, unknown>,
): Promise<DomAnswer> {
  const tab = await targetTab(input);
  const tabId = tab.id!;
  const outcome = await calls.run(tabId, tool, () => runInTab(tabId, op, withoutUndefined(args)));
  if (!outcome.ok) throw kitFailure(outcome);
  return { tabId, ...outcome.value };
}

/** chrome.scripting arguments must be JSON: drop undefined fields. */
function withoutUndefined(args: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(args).filter(([, v]) => v !== undefined));
}
