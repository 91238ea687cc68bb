/**
 * The debugger's side of refs (docs/decisions/063-refs-across-frames.md): from a ref (or a selector,
 * which first gets a ref through the kit) to the element as a CDP object, in whichever session holds
 * its document (the page's, or an out-of-process frame's child session).
 *
 * The kit lives in the extension's isolated world of each document. With the Runtime domain on in
 * a session, Chromium reports that world's execution context (`auxData.type: "isolated"`, `origin`
 * this extension's `chrome-extension://<id>`); contexts are told apart by origin, never by name.
 * The registry's token joins the two worlds of frame ids: each such context is asked, with
 * `Runtime.callFunctionOn`, for element `n` of the registry holding `token`, and only the kit of
 * the ref's document answers with an element. CDP frame ids and the extension's `frameId`s never
 * need to be mapped; a ref whose element or document is gone is REF_STALE, as on the kit's side.
 */
import { hubError } from "../../../../protocol/errors.ts";
import { quoteClip } from "../../../../protocol/clip.ts";
import { staleRefMessage } from "../../../../protocol/browser_methods/refs.ts";
import { DOM_KIT_GLOBAL } from "../../page/dom_kit_types.ts";
import {
  type CdpEvent,
  type DebuggerSessions,
  domainEnabled,
  type TabSession,
} from "../debugger_sessions.ts";
import type { MethodContext } from "./browser_method.ts";
import { placeCall } from "./call_place.ts";
import { domCall } from "./dom_call.ts";
import type { ElementTarget } from "./element_point.ts";

/** An element as a CDP object in the session that holds its document. */
export interface ResolvedNode {
  /** The child session of its out-of-process frame; undefined for the page's own session. */
  sessionId?: string;
  objectId: string;
  backendNodeId: number;
  /** The ref it was reached by (a selector's first match gets one). */
  ref: string;
}

/** The object group every resolved node belongs to (releaseNodes lets go of them). */
export const NODE_GROUP = "hub-nodes";

/**
 * Runs in an isolated world's context (serialized by CDP): element `n` of the kit registry that
 * holds `token`, or null in any other document.
 */
function kitElement(name: string, token: string, n: number): unknown {
  const kit = Reflect.get(globalThis, name) as
    | { element?: (token: string, n: number) => unknown }
    | undefined;
  return typeof kit?.element === "function" ? kit.element(token, n) ?? null : null;
}

/**
 * The element `target` names in tab `tabId`, through the tab's debugger `session`: a selector
 * (with `frame`) first gets its first match's ref from the kit (hidden elements too: a file input
 * is often hidden behind a styled label); then the kit holding the ref's registry hands the
 * element over. REF_STALE when no kit holds it any more, ELEMENT_NOT_FOUND when the selector
 * matches nothing.
 */
export async function resolveNode(
  session: TabSession,
  tabId: number,
  target: ElementTarget,
  context: MethodContext,
  tool: string,
  contexts: KitContexts = trackerOf(context.sessions),
): Promise<ResolvedNode> {
  const ref = target.ref ?? await refOfSelector(tabId, target, context, tool);
  const place = await placeCall(tabId, ref, undefined, context);
  if (!place.ref) throw hubError("REF_STALE", staleRefMessage(ref));
  const { n, token } = place.ref;
  const keys = [undefined, ...session.children().map((c) => c.sessionId)];
  const found = await Promise.all(keys.map(async (sessionId) => {
    await contexts.ready(session, sessionId);
    return await askKits(session, sessionId, contexts.of(tabId, sessionId), token, n);
  }));
  const hit = found.find((f) => f !== undefined);
  if (!hit) throw hubError("REF_STALE", staleRefMessage(ref));
  const { node } = await session.send<{ node?: { backendNodeId?: number } }>(
    "DOM.describeNode",
    { objectId: hit.objectId },
    { sessionId: hit.sessionId },
  );
  if (typeof node?.backendNodeId !== "number") throw hubError("REF_STALE", staleRefMessage(ref));
  return { ...hit, backendNodeId: node.backendNodeId, ref };
}

/** Lets go of the nodes resolved in `sessionId` (they stay alive until then). */
export async function releaseNodes(session: TabSession, sessionId?: string): Promise<void> {
  await session.send("Runtime.releaseObjectGroup", { objectGroup: NODE_GROUP }, { sessionId })
    .catch(() => {});
}

/** The ref of the first element `selector` matches (in `frame`), handed out by its kit. */
async function refOfSelector(
  tabId: number,
  target: ElementTarget,
  context: MethodContext,
  tool: string,
): Promise<string> {
  const selector = target.selector ?? "";
  const answer = await domCall(
    "dom.query",
    {
      tabId,
      selector,
      frame: target.frame,
      limit: 1,
    } as never,
    context,
    tool,
  );
  const first = (answer.elements as { ref?: unknown }[] | undefined)?.[0];
  if (typeof first?.ref === "string") return first.ref;
  throw hubError(
    "ELEMENT_NOT_FOUND",
    `No element matches ${quoteClip(selector)}${
      target.frame ? ` in frame ${quoteClip(target.frame)}` : ""
    }. ` +
      "See what is there with browser_snapshot or browser_query_elements.",
  );
}

/** Asks each of the session's kit contexts for the element; the one that has it answers. */
async function askKits(
  session: TabSession,
  sessionId: string | undefined,
  contextIds: number[],
  token: string,
  n: number,
): Promise<{ sessionId?: string; objectId: string } | undefined> {
  const answers = await Promise.all(contextIds.map(async (executionContextId) => {
    try {
      const { result } = await session.send<{ result?: { objectId?: string; subtype?: string } }>(
        "Runtime.callFunctionOn",
        {
          functionDeclaration: kitElement.toString(),
          executionContextId,
          arguments: [{ value: DOM_KIT_GLOBAL }, { value: token }, { value: n }],
          returnByValue: false,
          objectGroup: NODE_GROUP,
          silent: true,
        },
        { sessionId },
      );
      return result?.subtype === "node" && result.objectId ? result.objectId : undefined;
    } catch {
      return undefined; // a context that went away meanwhile
    }
  }));
  const objectId = answers.find((a) => a !== undefined);
  return objectId ? { sessionId, objectId } : undefined;
}

/** The extension's isolated-world contexts of each session, from the Runtime domain's events. */
export interface KitContexts {
  /** Runtime is on in the session and its contexts are known (turns it on the first time). */
  ready(session: TabSession, sessionId: string | undefined): Promise<void>;
  of(tabId: number, sessionId: string | undefined): number[];
}

const trackers = new WeakMap<DebuggerSessions, KitContexts>();

/**
 * The contexts tracker of `sessions`, made on first use. `background.ts` may call it at start so
 * that it hears every context from the first attach on.
 */
export function trackerOf(sessions: DebuggerSessions): KitContexts {
  let tracker = trackers.get(sessions);
  if (!tracker) trackers.set(sessions, tracker = createKitContexts(sessions, extensionOrigin()));
  return tracker;
}

function extensionOrigin(): string {
  return `chrome-extension://${globalThis.chrome?.runtime?.id ?? ""}`;
}

interface SessionContexts {
  /** Runtime.enable answered while this tracker listened: every context is known. */
  known: boolean;
  /** executionContextId of the extension's isolated world in each document. */
  ids: Set<number>;
}

/**
 * Tracks the contexts of this extension's isolated worlds per tab and session. It turns the
 * Runtime domain on in a session the first time a ref is resolved there (then the domain stays on
 * until the session detaches, as other users of the session may rely on it); a session whose
 * Runtime was turned on before the tracker listened is turned off and on once, so Chromium reports
 * its contexts again.
 */
export function createKitContexts(sessions: DebuggerSessions, origin: string): KitContexts {
  const tabs = new Map<number, Map<string, SessionContexts>>();
  const entry = (tabId: number, sessionId: string | undefined): SessionContexts => {
    let tab = tabs.get(tabId);
    if (!tab) tabs.set(tabId, tab = new Map());
    const key = sessionId ?? "";
    let state = tab.get(key);
    if (!state) tab.set(key, state = { known: false, ids: new Set() });
    return state;
  };
  sessions.onEvent((event: CdpEvent) => {
    const { tabId, sessionId, method, params } = event;
    if (method === "Runtime.executionContextCreated") {
      const context = params.context as
        | { id?: number; origin?: string; auxData?: { type?: string } }
        | undefined;
      if (
        typeof context?.id === "number" && context.origin === origin &&
        context.auxData?.type === "isolated"
      ) entry(tabId, sessionId).ids.add(context.id);
    } else if (method === "Runtime.executionContextDestroyed") {
      tabs.get(tabId)?.get(sessionId ?? "")?.ids.delete(Number(params.executionContextId));
    } else if (method === "Runtime.executionContextsCleared") {
      tabs.get(tabId)?.get(sessionId ?? "")?.ids.clear();
    } else if (method === "Target.detachedFromTarget") {
      tabs.get(tabId)?.delete(String(params.sessionId ?? ""));
    }
  });
  sessions.onDetach((tabId) => tabs.delete(tabId));
  const starting = new Map<string, Promise<void>>();
  return {
    async ready(session, sessionId) {
      const state = entry(session.tabId, sessionId);
      if (state.known && domainEnabled(session, "Runtime", sessionId)) return;
      const key = `${session.tabId}:${sessionId ?? ""}`;
      let start = starting.get(key);
      if (!start) {
        start = (async () => {
          // Another user's Runtime.enable reported its contexts before this tracker listened:
          // off and on again, and Chromium reports them once more.
          if (domainEnabled(session, "Runtime", sessionId) && !state.known) {
            await session.send("Runtime.disable", {}, { sessionId });
          }
          // The contexts come as events before the command's answer.
          await session.send("Runtime.enable", {}, { sessionId });
          entry(session.tabId, sessionId).known = true;
        })().finally(() => starting.delete(key));
        starting.set(key, start);
      }
      await start;
    },
    of(tabId, sessionId) {
      return [...(tabs.get(tabId)?.get(sessionId ?? "")?.ids ?? [])];
    },
  };
}
