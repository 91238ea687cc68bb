/**
 * The page-side DOM kit, bundled as `dom_kit.js`. The extension injects it by file into a tab's
 * isolated world (which shares the page's DOM but not its scripts, and is not bound by the page's
 * Content-Security-Policy); it installs one object on that world's `globalThis`. Each browser
 * method then runs a tiny function there that calls `kit.run(method, args)` and gets a plain JSON
 * outcome back (extension/src/worker/browser_methods/dom_call.ts).
 */
import {
  DOM_KIT_GLOBAL,
  DOM_KIT_VERSION,
  type DomKit,
  type DomOp,
  type KitArgs,
  type KitOutcome,
  type KitState,
} from "./dom_kit_types.ts";
import { queryElements, readHtml, readText, waitForElement } from "./dom_read.ts";
import { clickElement, hoverElement, scrollPage } from "./dom_act.ts";
import { typeText } from "./dom_type.ts";
import { selectOption } from "./dom_select.ts";
import { pressKey } from "./dom_press.ts";
import { isKitFailure } from "./dom_find.ts";
import { framesShown } from "./visible_text.ts";
import { frameIndexOf, ownFrameIndex } from "./dom_frames.ts";
import { createRefRegistry, type RefScheme } from "./dom_refs.ts";
import { isFrameRef } from "../../../protocol/browser_methods/refs.ts";
import { snapshotDocument } from "./dom_snapshot.ts";
import { checkWaitFor } from "./dom_wait_for.ts";
import { actedElement, pointElement } from "./dom_point.ts";
import { findOption, focusForKeys, keysDone } from "./dom_focus.ts";

/** One operation per DOM method, taking that method's arguments. */
export type DomOps = { [Op in DomOp]: (args: KitArgs<Op>, state: KitState) => unknown };

export const DOM_OPS: DomOps = {
  "page.text": readText,
  "page.html": readHtml,
  "dom.query": queryElements,
  "dom.wait": waitForElement,
  "dom.click": clickElement,
  "dom.type": typeText,
  "dom.select": selectOption,
  "dom.key": pressKey,
  "dom.scroll": scrollPage,
  "dom.hover": hoverElement,
  "page.snapshot": snapshotDocument,
  "page.waitFor": checkWaitFor,
  "dom.point": pointElement,
  "dom.acted": actedElement,
  "dom.focus": focusForKeys,
  "dom.keysDone": keysDone,
  "dom.option": findOption,
};

/**
 * Any operation (`never`: it accepts whatever arguments it declares). `run` hands it the arguments
 * that crossed from the worker, which built them from the method's parsed input.
 */
type Operation = (args: never, state: KitState) => unknown;

/** A kit whose `run` never throws: failures come back as `{ ok: false, error: { code, message } }`. */
export function createDomKit(ops: Readonly<Record<string, Operation>> = DOM_OPS): DomKit {
  const state: KitState = { refs: createRefRegistry(), scheme: TOP_SCHEME };
  return {
    version: DOM_KIT_VERSION,
    framesShown: () => framesShown(),
    frameIndexOf: (selector) => frameIndexOf(String(selector)),
    ownFrameIndex: () => ownFrameIndex(),
    element: (token, n) => state.refs.elementOf({ n: Number(n), token: String(token) }) ?? null,
    async run(op, args, scheme) {
      const operation = Object.hasOwn(ops, op)
        ? ops[op] as (args: unknown, state: KitState) => unknown
        : undefined;
      if (!operation) {
        const message = `The DOM kit has no "${op}".`;
        return { ok: false, error: { code: "UNKNOWN_OPERATION", message } };
      }
      state.scheme = validScheme(scheme);
      try {
        const value = await operation(args ?? {}, state);
        const doc = { token: state.refs.token, upTo: state.refs.upTo };
        return { ok: true, value: value as Record<string, unknown>, doc };
      } catch (error) {
        return failed(error);
      }
    },
  };
}

/** The top document's refs, numbered from 1: the scheme of a call that names none. */
const TOP_SCHEME: RefScheme = { prefix: "", base: 1 };

/** `scheme` as the worker sent it, or the top document's when it is not one. */
function validScheme(scheme: unknown): RefScheme {
  const { prefix, base } = (scheme ?? {}) as Partial<RefScheme>;
  if (typeof prefix !== "string" || (prefix !== "" && !isFrameRef(prefix))) return TOP_SCHEME;
  return { prefix, base: Number.isSafeInteger(base) && base! > 0 ? base! : 1 };
}

function failed(error: unknown): KitOutcome {
  if (isKitFailure(error)) {
    return { ok: false, error: { code: error.code, message: error.message } };
  }
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return { ok: false, error: { code: "PAGE_ERROR", message } };
}

/** Puts the kit on `target` unless this version is there already; returns the kit in place. */
export function installDomKit(target: object = globalThis): DomKit {
  const current = Reflect.get(target, DOM_KIT_GLOBAL) as DomKit | undefined;
  if (current?.version === DOM_KIT_VERSION) return current;
  const kit = createDomKit();
  Reflect.set(target, DOM_KIT_GLOBAL, kit);
  return kit;
}

// The bundle's one effect, in a page (not when a test or the service worker imports this).
if (typeof document !== "undefined") installDomKit();
