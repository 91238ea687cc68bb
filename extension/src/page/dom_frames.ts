/**
 * The `frame` parameter's element in the top document: the `<iframe>` or `<frame>` a CSS selector
 * matches (the first, by the acting tools' rule, dom_find.ts) and its index in `window.frames`,
 * which the worker matches with the index each child frame finds for itself
 * (extension/src/worker/browser_methods/frame_target.ts).
 */
import { quoteClip } from "../../../protocol/clip.ts";
import type { KitOutcome } from "./dom_kit_types.ts";
import { fail, findFirst, isKitFailure, tagOf } from "./dom_find.ts";

/** `{ index, tag }` of the frame element `selector` matches (index -1: not in `frames`). */
export function frameIndexOf(selector: string, doc: Document = document): KitOutcome {
  try {
    const element = findFrameElement(selector);
    const child = (element as HTMLIFrameElement).contentWindow;
    const view = doc.defaultView;
    let index = -1;
    for (let i = 0; child && view && i < view.length; i++) {
      if (view[i] === child) {
        index = i;
        break;
      }
    }
    return { ok: true, value: { index, tag: tagOf(element) } };
  } catch (error) {
    if (!isKitFailure(error)) throw error;
    return { ok: false, error: { code: error.code, message: error.message } };
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
