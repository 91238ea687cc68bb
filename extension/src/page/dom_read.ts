/**
 * The kit's reading operations: a page's visible text and its HTML (capped), the elements a CSS
 * selector matches, and waiting until one is attached or visible.
 */
import { capText, DEFAULT_MAX_CHARS, MAX_CHARS } from "../../../protocol/text_cap.ts";
import {
  describeElement,
  fail,
  findAll,
  findFirst,
  intArg,
  isVisible,
  stringArg,
} from "./dom_find.ts";

const MORE_HINT = "Pass a selector to read one part of the page, or a larger maxLength " +
  `(at most ${MAX_CHARS}).`;
export const QUERY_LIMIT = { fallback: 20, max: 100 };
export const WAIT_MAX_MS = 25_000;
const WAIT_POLL_MS = 100;

/** `text`: innerText of the body or of the selector's first match. */
export function readText(args: Record<string, unknown>) {
  const selector = stringArg(args.selector);
  const element = selector ? findFirst(selector) : document.body ?? document.documentElement;
  const raw = element instanceof HTMLElement ? element.innerText : element.textContent ?? "";
  const capped = capText(raw, intArg(args.maxLength, DEFAULT_MAX_CHARS, 1, MAX_CHARS), MORE_HINT);
  return { url: location.href, title: document.title, ...capped };
}

/** `html`: outerHTML of the document or of the selector's first match. */
export function readHtml(args: Record<string, unknown>) {
  const selector = stringArg(args.selector);
  const element = selector ? findFirst(selector) : document.documentElement;
  const max = intArg(args.maxLength, DEFAULT_MAX_CHARS, 1, MAX_CHARS);
  const { text, truncated, totalLength } = capText(element.outerHTML, max, MORE_HINT);
  return { url: location.href, html: text, truncated, totalLength };
}

/** `query`: how many elements match, and the first `limit` described. */
export function queryElements(args: Record<string, unknown>) {
  const all = findAll(String(args.selector));
  const limit = intArg(args.limit, QUERY_LIMIT.fallback, 1, QUERY_LIMIT.max);
  return { total: all.length, elements: all.slice(0, limit).map(describeElement) };
}

/** The first match in `state` ("attached": any match; "visible": the first visible one). */
function matchIn(selector: string, state: string) {
  const all = findAll(selector);
  const index = state === "attached" ? (all.length > 0 ? 0 : -1) : all.findIndex(isVisible);
  return { count: all.length, index, element: index >= 0 ? all[index] : undefined };
}

/**
 * `wait`: resolves as soon as an element matching the selector is in `state`, watching DOM
 * changes (MutationObserver) and polling for style-only changes; fails with WAIT_TIMEOUT after
 * `timeoutMs` (at most WAIT_MAX_MS).
 */
export function waitForElement(args: Record<string, unknown>) {
  const selector = String(args.selector);
  const state = args.state === "attached" ? "attached" : "visible";
  const timeoutMs = intArg(args.timeoutMs, 10_000, 0, WAIT_MAX_MS);
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
    `No element matching "${selector}" was ${state} on ${location.href} within ` +
      `${timeoutMs} ms${seen}. Wait longer (timeoutMs, at most ${WAIT_MAX_MS}), use ` +
      'state: "attached" for hidden elements, or check the selector with browser_query_elements.',
  );
}
