/**
 * The defaults and limits of the DOM methods' inputs (dom.ts), which the page kit also names in its
 * messages. Kept free of imports so the page bundle (`dom_kit.js`) can use them without zod.
 */

/** `dom.query` `limit`: elements described by default, and at most. */
export const QUERY_DEFAULT_LIMIT = 20;
export const QUERY_MAX_LIMIT = 100;

/** `dom.wait` `timeoutMs`: how long to wait by default, and at most. */
export const WAIT_DEFAULT_MS = 10_000;
export const WAIT_MAX_MS = 25_000;

/**
 * Most `>>>` steps in one selector (`a >>> b >>> c` has 2): each step searches inside the open
 * shadow roots of the previous step's matches.
 */
export const PIERCE_MAX_STEPS = 16;

/**
 * Most characters of a `selector` or `frame` input. Selectors people and agents write are well
 * under a few hundred characters, a 16-step `>>>` path included; 2,000 leaves room for that while
 * keeping the page's parsing cheap and every message that quotes the input short.
 */
export const SELECTOR_MAX_CHARS = 2_000;
