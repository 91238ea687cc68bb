/**
 * Page text made inert for what hub writes around it (a snapshot's names and text lines, its
 * `# <title> — <url>` header, browser_wait_for's excerpt): one function, used by the page kit
 * (extension/src/page/snapshot_quote.ts) and by outline_header.ts, so every place drops the same
 * characters. Import-free.
 */

/** Control characters (C0, DEL, C1) and whitespace runs, each folded to one space. */
// deno-lint-ignore no-control-regex -- folding control characters is the point
const FOLD = /[\s\u0000-\u001f\u007f-\u009f]+/g;

/**
 * Characters that change how text reads without being seen (Unicode's default-ignorable code
 * points): bidi embeddings, overrides, isolates and marks, zero-width spaces and joiners, the soft
 * hyphen (U+00AD), the combining grapheme joiner (U+034F), variation selectors (U+FE00–FE0F),
 * the Mongolian vowel separator (U+180E), tag characters and the like. Each is dropped but where
 * an emoji needs it (keptInEmoji).
 */
const IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu;

const EMOJI = /^\p{Emoji}$/u;
/** What a zero-width joiner of an emoji sequence follows: a pictograph, a skin tone, U+FE0F. */
const JOINED_AFTER = /^[\p{Extended_Pictographic}\p{Emoji_Modifier}\ufe0f]$/u;
/** What a zero-width joiner of an emoji sequence comes before. */
const JOINED_BEFORE = /^\p{Extended_Pictographic}$/u;
/** The tag characters U+E0020–E007F that make a subdivision's flag after a black flag U+1F3F4. */
const TAG = /^[\u{e0020}-\u{e007f}]$/u;

/** A ref as the outline writes it, `[ref=`, in page text: written `[ref =` (see inertText). */
const REF_OPENER = /\[(ref)=/gi;

/** The code point before index `at` of `text`, as a string ("" at the start). */
function before(text: string, index: number): string {
  const low = text.charCodeAt(index - 1);
  const start = low >= 0xdc00 && low <= 0xdfff && index >= 2 ? index - 2 : index - 1;
  return start < 0 ? "" : String.fromCodePoint(text.codePointAt(start)!);
}

/** The code point at `index` of `text`, as a string ("" past the end). */
function after(text: string, index: number): string {
  const code = text.codePointAt(index);
  return code === undefined ? "" : String.fromCodePoint(code);
}

/**
 * Whether the ignorable `char` at `index` belongs to an emoji and stays: a zero-width joiner
 * between two emoji (👨‍👩), a text or emoji presentation selector (U+FE0E, U+FE0F) right after an
 * emoji (❤️, 1️⃣), tag characters right after a black flag (a subdivision's flag: 🏴 + tags). The
 * character before each is one people see, so none of them can hide inside `[ref=`.
 */
function keptInEmoji(char: string, index: number, text: string): boolean {
  const previous = before(text, index);
  if (char === "\u200d") {
    return JOINED_AFTER.test(previous) && JOINED_BEFORE.test(after(text, index + 1));
  }
  if (char === "\ufe0e" || char === "\ufe0f") return EMOJI.test(previous);
  if (!TAG.test(char)) return false;
  let start = index; // back over the tags before this one, to what they follow
  while (TAG.test(before(text, start))) start -= 2;
  return before(text, start) === "\u{1f3f4}";
}

/**
 * Page text made inert for an outline or a message: invisible characters dropped (IGNORABLE, but
 * where an emoji needs them), whitespace and control characters folded to one space (not
 * trimmed), and `[ref=` written `[ref =`, so a `[ref=…]` only ever ends a line hub wrote and never
 * one the page wrote (a page cannot point the agent at another element's real ref). Dropping comes
 * first, so nothing invisible between `[ref` and `=` survives to hide it from the last step.
 */
export function inertText(text: string): string {
  return text
    .replace(
      IGNORABLE,
      (char, index: number, whole: string) => keptInEmoji(char, index, whole) ? char : "",
    )
    .replace(FOLD, " ")
    .replace(REF_OPENER, "[$1 =");
}
