/**
 * Runs one operation of the page-side DOM kit (extension/src/page/dom_kit.ts) in a tab: calls the
 * kit already in the tab's isolated world, and when it is not there yet (or is an older version)
 * injects `dom_kit.js` by file and calls again. Failures the kit reports become tool errors with
 * the kit's code.
 *
 * Every call runs in one known document, with that document's ref scheme from the tab's frame
 * table (ref_frames.ts), and records the kit's registry after the answer, so the refs an answer
 * hands out (`e5`, `f2e7`) lead back to their document (docs/decisions/063-refs-across-frames.md):
 * a `ref` runs in its own document (Chrome refuses one that is gone: REF_STALE); `frame` in that
 * frame's document; neither in the tab's current top document.
 */
import { quoteClip } from "../../../../protocol/clip.ts";
import { type HubError, hubError, type HubErrorCode } from "../../../../protocol/errors.ts";
import {
  frameRef,
  isFrameRef,
  parseRef,
  refPrefix,
  staleRefMessage,
} from "../../../../protocol/browser_methods/refs.ts";
import {
  DOM_KIT_FILE,
  DOM_KIT_GLOBAL,
  DOM_KIT_VERSION,
  type DomOp,
  type KitArgs,
  type KitError,
  type KitOutcome,
} from "../../page/dom_kit_types.ts";
import type { BrowserInput, DomAnswer } from "../../../../protocol/browser_methods/mod.ts";
import type { KitRef, RefScheme } from "../../page/dom_refs.ts";
import { isDocumentGone } from "../chrome_errors.ts";
import { callWithKit, firstResult, type MethodContext, targetTab } from "./browser_method.ts";
import { CHROME_FRAME_LOOKUPS, type FrameLookups, resolveFramePlace } from "./frame_target.ts";
import { docOf, recordDoc, schemeFor } from "./ref_frames.ts";

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

/** Where a DOM call runs: the document, how its kit writes refs, and the ref it acts on. */
export interface CallPlace {
  target: chrome.scripting.InjectionTarget;
  /** The document's `k` in the tab's frame table, when the call runs in a known document. */
  k?: number;
  documentId?: string;
  scheme?: RefScheme;
  /** The `ref` of the input, for the kit of its document. */
  ref?: KitRef;
  /**
   * What Chrome refusing the document (it is gone) means: `stale` (a ref's document: REF_STALE),
   * `frame` (a frame selector's document navigated: TAB_NAVIGATED), `top` (the top document
   * changed between the lookup and the call: look again).
   */
  gone: "stale" | "frame" | "top";
  /** The ref or frame the agent wrote, for messages. */
  named?: string;
}

/**
 * Where a call with `ref` and `frame` (either may be absent) runs in tab `tabId`: a ref in its
 * own document (a frame's ref `f<k>` as an element: its `<iframe>` in the parent document), a
 * `frame` in that frame's current document, else the tab's top document. A ref with a `frame`
 * that names another frame is INVALID_ARGUMENTS; a ref the frame table no longer holds REF_STALE.
 */
export async function placeCall(
  tabId: number,
  ref: string | undefined,
  frame: string | undefined,
  lookups: FrameLookups = CHROME_FRAME_LOOKUPS,
): Promise<CallPlace> {
  if (ref !== undefined) return await placeRef(tabId, ref, frame);
  if (frame === undefined) return await placeTop(tabId);
  const found = await resolveFramePlace(tabId, frame, lookups);
  const gone = isFrameRef(frame) && lookups.byRef ? "stale" : "frame";
  const documentId = found.documentId ??
    (found.frameId === undefined ? undefined : await documentOf(tabId, found.frameId));
  if (documentId === undefined || found.frameId === undefined) {
    return { target: found.target, gone, named: frame };
  }
  const { k, scheme } = await schemeFor(tabId, found.frameId, documentId);
  return {
    target: { tabId, documentIds: [documentId] },
    k,
    documentId,
    scheme,
    gone,
    named: frame,
  };
}

/** Most `<iframe>` owners followed for a frame's ref used as an element (frames nested deeper). */
const OWNER_HOPS = 32;

async function placeRef(tabId: number, text: string, frame?: string): Promise<CallPlace> {
  const parsed = parseRef(text);
  if (!parsed) throw hubError("REF_STALE", staleRefMessage(text));
  if (frame !== undefined && (parsed.frame === 0 || frame !== frameRef(parsed.frame))) {
    throw hubError(
      "INVALID_ARGUMENTS",
      `Pass ref ${quoteClip(text)} without frame ${quoteClip(frame)}: a ref already names its ` +
        "frame (frame may only repeat it, as its f<k> part).",
    );
  }
  let { frame: k, element: n } = parsed;
  let entry = await docOf(tabId, k);
  // A frame's ref as an element: its <iframe>, in the parent document (at any depth).
  for (let hop = 0; n === undefined && hop < OWNER_HOPS; hop++) {
    const owner = entry?.owner ? parseRef(entry.owner) : undefined;
    if (!owner) break;
    ({ frame: k, element: n } = owner);
    entry = await docOf(tabId, k);
  }
  if (n === undefined || !entry?.token) throw hubError("REF_STALE", staleRefMessage(text));
  const { documentId, token, base } = entry;
  return {
    target: { tabId, documentIds: [documentId] },
    k,
    documentId,
    scheme: { prefix: refPrefix(k), base },
    ref: { n, token, text },
    gone: "stale",
    named: text,
  };
}

/**
 * The tab's top document, looked up before the call (one `webNavigation.getFrame`): its scheme
 * must be known before the kit hands out refs, because a new top document numbers from its base.
 */
async function placeTop(tabId: number): Promise<CallPlace> {
  const documentId = await documentOf(tabId, 0);
  if (documentId === undefined) {
    // No document to name (cannot happen in Chrome ≥ 106): as before refs, the tab's top frame,
    // numbered above what the table holds, nothing recorded.
    const top = await docOf(tabId, 0);
    return { target: { tabId }, scheme: { prefix: "", base: (top?.upTo ?? 0) + 1 }, gone: "top" };
  }
  const { k, scheme } = await schemeFor(tabId, 0, documentId);
  return { target: { tabId, documentIds: [documentId] }, k, documentId, scheme, gone: "top" };
}

/** The documentId of frame `frameId` of the tab, or undefined when Chrome gives none. */
async function documentOf(tabId: number, frameId: number): Promise<string | undefined> {
  try {
    return (await chrome.webNavigation.getFrame({ tabId, frameId }))?.documentId ?? undefined;
  } catch {
    return undefined;
  }
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
export async function domCall<Op extends DomOp>(
  op: Op,
  input: BrowserInput<Op>,
  { calls }: MethodContext,
  tool: string,
  onNavigation?: (seen: PageNavigation) => void,
): Promise<DomAnswer> {
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
        const place = await placeCall(tabId, ref, frame);
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
            await recordDoc(tabId, place.k, answer.doc, place.documentId);
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

/**
 * Chrome refusing a document that is gone: a ref's document (or a frame's by ref) as REF_STALE, a
 * frame selector's document (it navigated) as TAB_NAVIGATED; any other error as it is.
 */
export function goneError(place: Pick<CallPlace, "gone" | "named">, error: unknown): unknown {
  return isDocumentGone(error) ? goneErrorOf(place) : error;
}

/** The error of a call whose document is gone, by how the call named it (see `goneError`). */
export function goneErrorOf(place: Pick<CallPlace, "gone" | "named">): HubError {
  if (place.gone === "stale") return hubError("REF_STALE", staleRefMessage(place.named ?? ""));
  const what = place.gone === "frame" ? `The frame ${quoteClip(place.named ?? "")}` : "The tab";
  return hubError(
    "TAB_NAVIGATED",
    `${what} loaded another page while the call ran; call again to act on it.`,
  );
}

/** chrome.scripting arguments must be JSON: drop undefined fields. */
function withoutUndefined<T extends object>(args: T): T {
  return Object.fromEntries(Object.entries(args).filter(([, v]) => v !== undefined)) as T;
}
