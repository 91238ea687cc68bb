/**
 * The kit's reading operations: a page's visible text and its HTML (capped), the elements a CSS
 * selector matches, and waiting until one is attached or visible.
 */
import { quoteClip } from "../../../protocol/clip.ts";
import { capText } from "../../../protocol/text_cap.ts";
import { WAIT_MAX_MS } from "../../../protocol/browser_methods/dom_limits.ts";
import {
  describeElement,
  fail,
  findAll,
  findFirst,
  isVisible,
  resolveSelector,
} from "./dom_find.ts";
import { type KitArgs, MORE_HINT } from "./dom_kit_types.ts";
import { visibleComposedText } from "./visible_text.ts";

const WAIT_POLL_MS = 100;

/**
 * `page.text`: the visible text of the body or of the selector's first match (visible_text.ts),
 * open shadow roots' text included in composed-tree order (composedText in dom_deep.ts).
 */
export function readText(args: KitArgs<"page.text">) {
  const element = args.selector
    ? findFirst(args.selector)
    : document.body ?? document.documentElement;
  // Inside shadow trees, each part is judged by the visible-text rule too (hidden parts cut out).
  const raw = visibleComposedText(element);
  const capped = capText(raw, args.maxLength, MORE_HINT);
  return { url: location.href, title: document.title, ...capped };
}

/** `page.html`: outerHTML of the document or of the selector's first match. */
export function readHtml(args: KitArgs<"page.html">) {
  const element = args.selector ? findFirst(args.selector) : document.documentElement;
  const { text, truncated, totalLength } = capText(element.outerHTML, args.maxLength, MORE_HINT);
  return { url: location.href, html: text, truncated, totalLength };
}

/** `dom.query`: how many elements match, and the first `limit` described. */
export function queryElements(args: KitArgs<"dom.query">) {
  const all = findAll(args.selector);
  return { total: all.length, elements: all.slice(0, args.limit).map(describeElement) };
}

/**
 * The first match in `state` ("attached": any match; "visible": the first visible one). A `>>>`
 * host without a shadow root yet is no match: its component may start later.
 */
function matchIn(selector: string, state: string) {
  const all = resolveSelector(selector).elements;
  const index = state === "attached" ? (all.length > 0 ? 0 : -1) : all.findIndex(isVisible);
  return { count: all.length, index, element: index >= 0 ? all[index] : undefined };
}

/**
 * `dom.wait`: resolves as soon as an element matching the selector is in `state`, watching DOM
 * changes (MutationObserver) and polling for style-only changes; fails with WAIT_TIMEOUT after
 * `timeoutMs`.
 */
export function waitForElement(args: KitArgs<"dom.wait">) {
  const { selector, state, timeoutMs } = args;
  const start = performance.now();
  let last = matchIn(selector, state); // an invalid selector fails here, at once
  return new Promise((resolve, reject) => {
    const finish = () => {
      observer.disconnect();
      clearInterval(poll);
      clearTimeout(timer);
    };
    const check = () => {
      last = matchIn(selector, state);
      if (!last.element) return;
      finish();
      const waitedMs = Math.round(performance.now() - start);
      resolve({ waitedMs, element: describeElement(last.element, last.index) });
    };
    const observer = new MutationObserver(check);
    const poll = setInterval(check, WAIT_POLL_MS);
    const timer = setTimeout(() => {
      finish();
      reject(waitTimeout(selector, state, timeoutMs, last.count));
    }, timeoutMs);
    // Changes inside shadow roots are not reported to this observer: the poll sees them.
    observer.observe(document, { childList: true, subtree: true, attributes: true });
    check();
  });
}

function waitTimeout(selector: string, state: string, timeoutMs: number, count: number) {
  const seen = state === "visible" && count > 0
    ? ` (${count} matching element${count === 1 ? " is" : "s are"} there, but hidden)`
    : "";
  return fail(
    "WAIT_TIMEOUT",
    `No element matching ${quoteClip(selector)} was ${state} on ${location.href} within ` +
      `${timeoutMs} ms${seen}. Wait longer (timeoutMs, at most ${WAIT_MAX_MS}), use ` +
      'state: "attached" for hidden elements, or check the selector with browser_query_elements.',
  );
}
