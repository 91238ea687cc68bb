/**
 * The kit's reading operations: a page's visible text and its HTML (capped), the elements a CSS
 * selector matches, and waiting until one is attached or visible.
 */
import { capText } from "../../../protocol/text_cap.ts";
import { WAIT_MAX_MS } from "../../../protocol/browser_methods/dom_limits.ts";
import {
  clip,
  describeElement,
  elementOfRef,
  fail,
  findAll,
  findTarget,
  isVisible,
  resolveSelector,
  shortText,
  targetLabel,
} from "./dom_find.ts";
import { type KitArgs, type KitState, MORE_HINT } from "./dom_kit_types.ts";
import { allText, hiddenJudge, visibleComposedText } from "./visible_text.ts";

const WAIT_POLL_MS = 100;

/** An element's text as people see it (visible_text.ts), clipped like shortText. */
export function seenText(element: Element): string {
  return clip(visibleComposedText(element));
}

/**
 * `page.text`: the visible text of the body or of the selector's first match (visible_text.ts),
 * open shadow roots' text included in composed-tree order (composedText in dom_deep.ts); with
 * `includeHidden`, all of its text (allText).
 */
export function readText(args: KitArgs<"page.text">, state: KitState) {
  const element = args.selector || args.ref
    ? findTarget(args, state.refs)
    : document.body ?? document.documentElement;
  // Inside shadow trees, each part is judged by the visible-text rule too (hidden parts cut out).
  const raw = args.includeHidden ? allText(element) : visibleComposedText(element);
  const capped = capText(raw, args.maxLength, MORE_HINT);
  return { url: location.href, title: document.title, ...capped };
}

/** `page.html`: outerHTML of the document or of the selector's first match. */
export function readHtml(args: KitArgs<"page.html">, state: KitState) {
  const element = args.selector || args.ref
    ? findTarget(args, state.refs)
    : document.documentElement;
  const { text, truncated, totalLength } = capText(element.outerHTML, args.maxLength, MORE_HINT);
  return { url: location.href, html: text, truncated, totalLength };
}

/**
 * `dom.query`: how many elements match, and the first `limit` described, each with its ref. With
 * `ref`, the selector is matched under that element; without a selector, it is the one match.
 * Unless `includeHidden`, a match hidden from people (itself or an ancestor, visibility.ts) is
 * not listed nor counted in `total` (`hiddenLeftOut` counts them), and each element's text
 * leaves its hidden parts out.
 */
export function queryElements(args: KitArgs<"dom.query">, state: KitState) {
  const root = args.ref ? elementOfRef(state.refs, args.ref) : document;
  const found = args.selector === undefined ? [root as Element] : findAll(args.selector, root);
  const hidden = args.includeHidden ? () => false : hiddenJudge();
  const all = found.filter((element) => !hidden(element));
  const elements = all.slice(0, args.limit).map((element, index) =>
    describeElement(element, index, state, args.includeHidden ? shortText : seenText)
  );
  const left = found.length - all.length;
  return { total: all.length, elements, ...(left > 0 ? { hiddenLeftOut: left } : {}) };
}

/**
 * The first match in `state` ("attached": any match; "visible": the first visible one). A `>>>`
 * host without a shadow root yet is no match: its component may start later.
 */
function matchIn(args: KitArgs<"dom.wait">, refs: KitState["refs"], state: string) {
  const all = args.ref
    ? [refs.elementOf(args.ref)].filter((e) => e !== undefined)
    : resolveSelector(args.selector ?? "").elements;
  const index = state === "attached" ? (all.length > 0 ? 0 : -1) : all.findIndex(isVisible);
  return { count: all.length, index, element: index >= 0 ? all[index] : undefined };
}

/**
 * `dom.wait`: resolves as soon as an element matching the selector is in `state`, watching DOM
 * changes (MutationObserver) and polling for style-only changes; fails with WAIT_TIMEOUT after
 * `timeoutMs`.
 */
export function waitForElement(args: KitArgs<"dom.wait">, kit: KitState) {
  const { state, timeoutMs } = args;
  const start = performance.now();
  if (args.ref) elementOfRef(kit.refs, args.ref); // a ref gone already cannot come back
  let last = matchIn(args, kit.refs, state); // an invalid selector fails here, at once
  return new Promise((resolve, reject) => {
    const finish = () => {
      observer.disconnect();
      clearInterval(poll);
      clearTimeout(timer);
    };
    const check = () => {
      last = matchIn(args, kit.refs, state);
      if (!last.element) return;
      finish();
      const waitedMs = Math.round(performance.now() - start);
      resolve({ waitedMs, element: describeElement(last.element, last.index, kit, seenText) });
    };
    const observer = new MutationObserver(check);
    const poll = setInterval(check, WAIT_POLL_MS);
    const timer = setTimeout(() => {
      finish();
      reject(waitTimeout(args, state, timeoutMs, last.count));
    }, timeoutMs);
    // Changes inside shadow roots are not reported to this observer: the poll sees them.
    observer.observe(document, { childList: true, subtree: true, attributes: true });
    check();
  });
}

function waitTimeout(args: KitArgs<"dom.wait">, state: string, timeoutMs: number, count: number) {
  const seen = state === "visible" && count > 0
    ? ` (${count} matching element${count === 1 ? " is" : "s are"} there, but hidden)`
    : "";
  return fail(
    "WAIT_TIMEOUT",
    `No element matching ${targetLabel(args)} was ${state} on ${location.href} within ` +
      `${timeoutMs} ms${seen}. Wait longer (timeoutMs, at most ${WAIT_MAX_MS}), use ` +
      'state: "attached" for hidden elements, or check the selector with browser_query_elements.',
  );
}
