/**
 * Runs one operation of the page-side DOM kit (extension/src/page/dom_kit.ts) in a tab: calls the
 * kit already in the tab's isolated world, and when it is not there yet (or is an older version)
 * injects `dom_kit.js` by file and calls again. Failures the kit reports become tool errors with
 * the kit's code.
 *
 * Every call runs in one known document (call_place.ts), with that document's ref scheme from the
 * tab's frame table (ref_frames.ts), and records the kit's registry after the answer, so the refs
 * an answer hands out (`e5`, `f2e7`) lead back to their document
 * (docs/decisions/063-refs-across-frames.md).
 */
import { type HubError, hubError, type HubErrorCode } from "../../../../protocol/errors.ts";
import {
  DOM_KIT_FILE,
  DOM_KIT_GLOBAL,
  DOM_KIT_VERSION,
  type DomOp,
  type KitArgs,
  type KitError,
  type KitOutcome,
} from "../../page/dom_kit_types.ts";
import type {
  BrowserInput,
  DomAnswer,
  DomMethodName,
} from "../../../../protocol/browser_methods/mod.ts";
import type { RefScheme } from "../../page/dom_refs.ts";
import { isDocumentGone } from "../chrome_errors.ts";
import { callWithKit, firstResult, type MethodContext, targetTab } from "./browser_method.ts";
import { goneError, placeCall } from "./call_place.ts";

const MISSING = "KIT_MISSING";

/**
 * What the page saw while an action ran, for the worker's navigation watch (action_navigation.ts):
 * `possible` when a navigation may have begun (the Navigation API's `navigate` event fired, a form
 * was submitted, a link was clicked), `none` when none did. Absent: the page cannot tell (no
 * Navigation API), so the worker assumes `possible`.
 */
export type PageNavigation = "none" | "possible";

type WatchedOutcome = KitOutcome & { navigation?: PageNavigation };

/**
 * Runs in the page's isolated world; self-contained (serialized by chrome.scripting). With `watch`,
 * listens during the operation for what may start a navigation: `navigate` on `navigation` (fired
 * synchronously when a link, a `location` change or `form.submit()` starts one, in every world),
 * `submit` (a form's submission starts its navigation one task later), and a click on a link
 * (`target=_blank` opens a tab, which fires no `navigate` here); a submit or click the page
 * cancelled does not count.
 */
async function callKit(
  name: string,
  version: string,
  op: string,
  args: unknown,
  watch = false,
  scheme: RefScheme | null = null,
): Promise<WatchedOutcome> {
  const kit = Reflect.get(globalThis, name) as
    | {
      version?: string;
      run?: (op: string, args: unknown, scheme?: RefScheme) => Promise<KitOutcome>;
    }
    | undefined;
  if (kit?.version !== version || typeof kit.run !== "function") {
    return { ok: false, error: { code: "KIT_MISSING", message: "" } };
  }
  const navigation = Reflect.get(globalThis, "navigation") as EventTarget | undefined;
  if (!watch || typeof navigation?.addEventListener !== "function") {
    return await kit.run(op, args, scheme ?? undefined);
  }
  const seen: Event[] = [];
  const onNavigate = (event: Event) => seen.push(event);
  const onSubmit = (event: Event) => seen.push(event);
  // composedPath() is empty once the dispatch is over: look for the link while it runs.
  const onClick = (event: Event) =>
    event.composedPath().some((n) => n instanceof Element && n.matches("a[href], area[href]")) &&
    seen.push(event);
  navigation.addEventListener("navigate", onNavigate);
  addEventListener("submit", onSubmit, true);
  addEventListener("click", onClick, true);
  try {
    const outcome = await kit.run(op, args, scheme ?? undefined);
    const possible = seen.some((event) => event.type === "navigate" || !event.defaultPrevented);
    return { ...outcome, navigation: possible ? "possible" : "none" };
  } finally {
    navigation.removeEventListener("navigate", onNavigate);
    removeEventListener("submit", onSubmit, true);
    removeEventListener("click", onClick, true);
  }
}

/**
 * Kit operation `op` in `target` (installing the kit when it is missing), its refs written by
 * `scheme` (default: the top document's from 1); with `watch`, the outcome says whether a
 * navigation may have begun.
 */
export async function runInTab<Op extends DomOp>(
  target: chrome.scripting.InjectionTarget,
  op: Op,
  args: KitArgs<Op>,
  watch: boolean,
  scheme?: RefScheme,
): Promise<WatchedOutcome> {
  const call = async () =>
    firstResult<WatchedOutcome>(
      await chrome.scripting.executeScript({
        target,
        func: callKit,
        args: [DOM_KIT_GLOBAL, DOM_KIT_VERSION, op, args, watch, scheme ?? null],
      }),
    );
  return await callWithKit(target, call);
}

/**
 * A failed outcome as the error the agent sees: the kit's code and message, with the code's
 * category and retryable flag from the error table (a code the table does not know is an internal
 * failure, by `errorPayload`).
 */
export function kitFailure({ code, message }: KitError): HubError {
  if (code === MISSING) {
    return hubError(
      "EXTENSION_ERROR",
      `The page helper ${DOM_KIT_FILE} could not be installed in the tab. Run "hub start" to ` +
        "reinstall the extension, then reload it in chrome://extensions.",
    );
  }
  return hubError(code as HubErrorCode, message);
}

/**
 * Runs DOM method `op` in the target tab (input.tabId or the active tab) for `tool`, with the
 * method's parsed input (less `tabId` and `frame`) as the kit operation's arguments; with `frame`,
 * in that frame's document (frame_target.ts); resolves with the tab id
 * and the operation's value, or throws the tool's error. With `onNavigation`, the page watches the
 * operation for what may start a navigation and `onNavigation` hears what it saw (PageNavigation),
 * when the page could tell.
 */
export async function domCall<Op extends DomMethodName>(
  op: Op,
  input: BrowserInput<Op>,
  context: MethodContext,
  tool: string,
  onNavigation?: (seen: PageNavigation) => void,
): Promise<DomAnswer> {
  const { calls, refFrames } = context;
  const { tabId: wanted, frame, ref, ...args } = input as BrowserInput<Op> & {
    frame?: string;
    ref?: string;
  };
  const tab = await targetTab({ tabId: wanted });
  const tabId = tab.id!;
  const watch = onNavigation !== undefined;
  const outcome = await calls.run(
    tabId,
    tool,
    async () => {
      for (let attempt = 1;; attempt++) {
        const place = await placeCall(tabId, ref, frame, context);
        const kitArgs = { ...withoutUndefined(args), ...(place.ref ? { ref: place.ref } : {}) };
        try {
          const answer = await runInTab(
            place.target,
            op,
            kitArgs as KitArgs<Op>,
            watch,
            place.scheme,
          );
          if (answer.ok && answer.doc && place.k !== undefined) {
            const current = await refFrames.recordDoc(tabId, place.k, answer.doc, place.documentId);
            // Refs handed out by a document the table no longer names (the tab went on to
            // another page meanwhile) could name the new page's elements: none leave.
            if (!current && HANDS_OUT_REFS.has(op)) throw replacedError(tool);
          }
          return answer;
        } catch (error) {
          // The top document changed between the lookup and the call: Chrome ran nothing.
          if (place.gone === "top" && attempt < 2 && isDocumentGone(error)) continue;
          throw goneError(place, error);
        }
      }
    },
  );
  if (outcome.navigation) onNavigation?.(outcome.navigation);
  if (!outcome.ok) throw kitFailure(outcome.error);
  return { tabId, ...outcome.value };
}

/** The operations whose answer carries refs (browser_snapshot checks its own). */
const HANDS_OUT_REFS: ReadonlySet<string> = new Set(["dom.query", "dom.wait", "page.waitFor"]);

/** TAB_NAVIGATED for an answer from a document the tab left while the call ran. */
function replacedError(tool: string) {
  return hubError(
    "TAB_NAVIGATED",
    `The tab went on to another page while ${tool} ran, so the refs it found would be stale. ` +
      "Call it again on the new page.",
  );
}

/** chrome.scripting arguments must be JSON: drop undefined fields. */
export function withoutUndefined<T extends object>(args: T): T {
  return Object.fromEntries(Object.entries(args).filter(([, v]) => v !== undefined)) as T;
}
