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

/** `page.snapshot` `maxBytes`: bytes of outline per answer by default, and at most. */
export const SNAPSHOT_DEFAULT_BYTES = 20_000;
export const SNAPSHOT_MAX_BYTES = 200_000;

/**
 * Most characters of a page URL in a header line hub writes (a snapshot's `# <title> — <url>`, a
 * page text's `--- frame` line): a data: URL can be megabytes long.
 */
export const HEADER_URL_CHARS = 500;

/**
 * Most lines, and most characters of lines, of one document's outline (`page.snapshot` in the
 * kit): past either, the walk stops and the outline ends with hub's line saying so. The 3,000-element
 * bench page outlines to about 1,300 lines and 62 KB, so 25,000 lines is some 60,000 elements,
 * and 1,000,000 characters is 50 parts of the default `maxBytes` (5 of the largest): more than an
 * agent reads in parts; it outlines a part by `ref` or `selector` instead. The cap bounds the
 * walk's time, the answer the kit hands the worker, and the outlines the worker keeps per tab for
 * `since` (a 100,000-element page made 2.3 MB before).
 */
export const SNAPSHOT_DOC_MAX_LINES = 25_000;
export const SNAPSHOT_DOC_MAX_CHARS = 1_000_000;

/**
 * Most characters of a whole tab's outline (every frame document together, each within its own
 * budget above): the extension keeps the last few outlines of each tab in memory for `since` and
 * paging, so 50 frames of a million characters each must not all be kept.
 */
export const SNAPSHOT_TAB_MAX_CHARS = 2_000_000;

/** Most characters of an accessible name in a snapshot line; longer ones are cut with `…`. */
export const NAME_MAX_CHARS = 150;

/** Most characters of a `since` snapshot id (the ids the extension hands out are far shorter). */
export const SNAPSHOT_ID_MAX_CHARS = 40;

/** Snapshots the extension keeps per tab for `since` (older ones answer REF_STALE). */
export const SNAPSHOTS_KEPT = 4;

/** Documents a tab's frame table remembers (the oldest is dropped, and its refs go stale). */
export const FRAME_DOCS_PER_TAB = 256;

/** `page.waitFor` `text`/`textGone`: most characters of the text or `/regex/` to wait for. */
export const WAIT_TEXT_MAX_CHARS = 1_000;
