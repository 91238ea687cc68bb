/**
 * `page.waitFor` in one document: ONE check of browser_wait_for's condition, no waiting here (the
 * worker polls every document of the tab, page_wait_for.ts).
 *
 * - `text` / `textGone`: is the pattern (wait_text.ts) in this document's visible text, the text
 *   browser_get_page_text reads (visible_text.ts: open shadow roots included, text hidden from
 *   people left out)? Child frames are not part of it: the worker checks each frame itself.
 * - `ref` / `selector` with `state`: "visible" when the element (a selector's first visible match)
 *   is shown to people, "hidden" when it is absent or not shown, "detached" when it is absent (a
 *   ref whose element left the document counts as absent: met for "hidden" and "detached",
 *   REF_STALE for "visible").
 *
 * "Shown to people" is the snapshot's rule, not browser_wait_for_element's box test: neither the
 * element nor an ancestor (composed tree) is hidden by isHiddenFromPeople (display:none,
 * opacity:0, aria-hidden, zero size, clipped, off-page…), and its own `visibility` is visible.
 * Refs come from browser_snapshot, so "visible" means the snapshot would list the element, and
 * the text waits judge text by the same rule.
 */
import { staleRefMessage } from "../../../protocol/browser_methods/refs.ts";
import { clip, describeElement, fail, resolveSelector } from "./dom_find.ts";
import type { ElementInfo, KitArgs, KitState } from "./dom_kit_types.ts";
import { hiddenInPage, visibleComposedText } from "./visible_text.ts";
import { type PageFacts, pageFacts } from "./visibility.ts";
import { parseWaitText, searchText, type TextPattern, WaitTextError } from "./wait_text.ts";

/** One check's answer: whether the condition holds now, and what the check saw (≤ 200 chars). */
export interface WaitCheck {
  met: boolean;
  seen: string;
  /** `seen` is text near the pattern (its start, any case), not just the page's first words. */
  near?: true;
  /** The element waited for, with its ref, when there is one. */
  element?: ElementInfo;
}

export function checkWaitFor(args: KitArgs<"page.waitFor">, state: KitState): WaitCheck {
  if (args.text !== undefined) return checkText(args.text, true);
  if (args.textGone !== undefined) return checkText(args.textGone, false);
  return checkElement(args, state);
}

function checkText(text: string, appear: boolean): WaitCheck {
  let pattern: TextPattern;
  try {
    pattern = parseWaitText(text);
  } catch (error) {
    if (error instanceof WaitTextError) throw fail("INVALID_ARGUMENTS", error.message);
    throw error;
  }
  const root = document.body ?? document.documentElement;
  const { found, seen, near } = searchText(root ? visibleComposedText(root) : "", pattern);
  return { met: appear === found, seen, ...(near ? { near } : {}) };
}

/**
 * True when people can see `element` (the snapshot's rule; see the file's comment). `page`: the
 * facts of its document, read once by a caller judging many elements.
 */
export function shownToPeople(
  element: Element,
  page: PageFacts = pageFacts(element.ownerDocument),
): boolean {
  const view = element.ownerDocument.defaultView ?? globalThis as unknown as Window;
  if (view.getComputedStyle(element).visibility !== "visible") return false;
  return !hiddenInPage(element, page);
}

function checkElement(args: KitArgs<"page.waitFor">, state: KitState): WaitCheck {
  if (args.ref) {
    const element = state.refs.elementOf(args.ref);
    if (element) return judge([element], args.state, state);
    if (args.state === "visible") throw fail("REF_STALE", staleRefMessage(args.ref.text));
    return { met: true, seen: "its element is gone" };
  }
  // A `>>>` host without a shadow root yet is no match: its component may start later.
  return judge(resolveSelector(args.selector ?? "").elements, args.state, state);
}

/** Whether `all` (the target's matches, in order) are in `wanted`, and what was seen. */
function judge(all: Element[], wanted: string, state: KitState): WaitCheck {
  // One document's matches (a selector's, or a ref's one element): its facts are read once.
  const page = all.length > 0 ? pageFacts(all[0].ownerDocument) : undefined;
  const shown = all.findIndex((element) => shownToPeople(element, page));
  const met = wanted === "visible"
    ? shown >= 0
    : wanted === "hidden"
    ? shown < 0
    : all.length === 0;
  const seen = all.length === 0
    ? "no element matches"
    : all.length === 1
    ? `1 matching element, ${shown >= 0 ? "visible" : "hidden"}`
    : `${all.length} matching elements, ${shown >= 0 ? "one visible" : "all hidden"}`;
  const index = shown >= 0 ? shown : 0;
  if (!met || all.length === 0) return { met, seen };
  const seenText = (element: Element) => clip(visibleComposedText(element));
  return { met, seen, element: describeElement(all[index], index, state, seenText) };
}
