/**
 * The `frame` parameter's element in the top document: the `<iframe>` or `<frame>` a CSS selector
 * matches (the first, by the acting tools' rule, dom_find.ts) and its index in `window.frames`,
 * which the worker matches with the index each child frame finds for itself
 * (extension/src/worker/browser_methods/frame_target.ts); `windowIndex` and `ownFrameIndex` are
 * the kit's one way to find a window's index in `frames`.
 */
import { quoteClip } from "../../../protocol/clip.ts";
import type { KitOutcome } from "./dom_kit_types.ts";
import { fail, findFirst, isKitFailure, tagOf } from "./dom_find.ts";

/** `{ index, tag }` of the frame element `selector` matches (index -1: not in `frames`). */
export function frameIndexOf(selector: string, doc: Document = document): KitOutcome {
  try {
    const element = findFrameElement(selector);
    const index = windowIndex(doc.defaultView, (element as HTMLIFrameElement).contentWindow);
    return { ok: true, value: { index, tag: tagOf(element) } };
  } catch (error) {
    if (!isKitFailure(error)) throw error;
    return { ok: false, error: { code: error.code, message: error.message } };
  }
}

/** The index of `child` in `view`'s `frames` (`view[i]`), -1 when it is not there. */
export function windowIndex(view: Window | null, child: Window | null): number {
  if (!view || !child) return -1;
  for (let i = 0; i < view.length; i++) if (view[i] === child) return i;
  return -1;
}

/**
 * This document's index in its parent's `frames` (a cross-origin child may compare `parent[i]`
 * with its own window); -1 at the top or when it is not listed there.
 */
export function ownFrameIndex(): number {
  const here = globalThis as unknown as Window;
  try {
    return here.parent === here ? -1 : windowIndex(here.parent, here);
  } catch {
    return -1;
  }
}

function findFrameElement(selector: string): Element {
  let element: Element;
  try {
    element = findFirst(selector);
  } catch (error) {
    if (isKitFailure(error) && error.code === "ELEMENT_NOT_FOUND") {
      throw fail(
        "ELEMENT_NOT_FOUND",
        `No <iframe> matches frame ${
          quoteClip(selector)
        } on ${location.href}. List the page's frames ` +
          'with browser_query_elements and selector "iframe, frame".',
      );
    }
    throw error;
  }
  const tag = tagOf(element);
  if (tag === "iframe" || tag === "frame") return element;
  throw fail(
    "ELEMENT_NOT_FOUND",
    `frame ${
      quoteClip(selector)
    } matches a <${tag}> on ${location.href}, not an <iframe> or <frame>. ` +
      'List the page\'s frames with browser_query_elements and selector "iframe, frame".',
  );
}
