/**
 * The regexes browser_wait_for refuses because their backtracking can run for ever on text a page
 * picks (a regex runs in the page's renderer, which nothing can interrupt): a repeat inside a
 * repeat (`(a+)+`, `(a*)*`, `(\d+,?)+`, `((ab)+c)*`: "star height" 2, as npm's safe-regex judges
 * it), a repeated group with a choice anywhere inside (`(a|aa)+`, `(a|[ab])+`, `((x|y)z)*`: telling
 * which alternatives can match the same text is not cheap, so none is trusted), and more than
 * MAX_UNBOUNDED unbounded repeats (`*`, `+`, `{n,}` outside a character class) in the whole regex
 * (`a*a*a*b` is polynomial of a high degree). A repeat is `*`, `+`, `{n,}` or `{n,m}` with a most
 * of 2 or more; `?` is none. It has false positives (`(\w+\s)+` and `(beep|boop)*` are slow only on
 * some texts, or never) and misses other slow shapes: a regex runs on short lines of text only
 * (wait_text.ts), which keeps a polynomial one cheap. Pure, no dependency.
 */

/** A quantifier at the start of the rest of the source, and the most times it repeats. */
const QUANTIFIER = /^(?:([*+?])|\{(\d+)(?:(,)(\d*))?\})\??/;

/** A group's opening: `(`, `(?:`, `(?=`, `(?!`, `(?<=`, `(?<!`, `(?<name>`, `(?i:`, `(?-i:`. */
const GROUP_OPEN = /^\((?:\?(?:[:=!]|<[=!]|<[^>]*>|[a-zA-Z-]*:))?/;

/** Most unbounded repeats (`*`, `+`, `{n,}`) a regex may hold: `/Order.*shipped.*today/i` has two. */
export const MAX_UNBOUNDED = 2;

interface Group {
  start: number;
  /** A repeat is somewhere inside. */
  repeats: boolean;
  /** A choice (`|`) is somewhere inside, in this group or one within it. */
  chooses: boolean;
}

/** Why a regex is refused, and the piece of its source that is the reason. */
export interface RegexRisk {
  kind: "nested" | "choice" | "unbounded";
  piece: string;
}

/** The most times `quantifier` (a QUANTIFIER match) lets its atom repeat. */
function most(q: RegExpExecArray): number {
  if (q[1]) return q[1] === "?" ? 1 : Infinity;
  if (!q[3]) return Number(q[2]);
  return q[4] === "" ? Infinity : Number(q[4]);
}

/** Where the escape at `i` (a backslash) ends: `\u{…}`, `\p{…}`, `\k<…>` as one piece. */
function escapeEnd(source: string, i: number): number {
  const next = source[i + 1];
  if ("uPp".includes(next) && source[i + 2] === "{") return source.indexOf("}", i) + 1 || i + 2;
  if (next === "k" && source[i + 2] === "<") return source.indexOf(">", i) + 1 || i + 2;
  return i + 2;
}

/** Where the character class at `i` ends (classes nest with the `v` flag). */
function classEnd(source: string, i: number, nested: boolean): number {
  let depth = 0;
  for (let j = i; j < source.length; j++) {
    if (source[j] === "\\") j++;
    else if (source[j] === "[" && (depth === 0 || nested)) depth++;
    else if (source[j] === "]" && --depth === 0) return j + 1;
  }
  return source.length;
}

/** The risk in `source` (a regex that compiles with `flags`), or undefined when none was seen. */
export function regexRisk(source: string, flags = ""): RegexRisk | undefined {
  const root: Group = { start: 0, repeats: false, chooses: false };
  const stack = [root];
  let unbounded = 0;
  let last: { start: number; group?: Group } | undefined;
  for (let i = 0; i < source.length;) {
    const top = stack[stack.length - 1];
    const quantifier = last ? QUANTIFIER.exec(source.slice(i)) : null;
    if (last && quantifier) {
      const end = i + quantifier[0].length;
      const times = most(quantifier);
      if (times >= 2) {
        const piece = source.slice(last.start, end);
        if (last.group?.repeats) return { kind: "nested", piece };
        if (last.group?.chooses) return { kind: "choice", piece };
        top.repeats = true;
      }
      if (times === Infinity && ++unbounded > MAX_UNBOUNDED) {
        return { kind: "unbounded", piece: source };
      }
      [i, last] = [end, undefined];
      continue;
    }
    const c = source[i];
    if (c === "(") {
      const open = GROUP_OPEN.exec(source.slice(i))![0].length;
      stack.push({ start: i, repeats: false, chooses: false });
      [i, last] = [i + open, undefined];
    } else if (c === ")" && stack.length > 1) {
      const group = stack.pop()!;
      stack[stack.length - 1].repeats ||= group.repeats;
      stack[stack.length - 1].chooses ||= group.chooses;
      [i, last] = [i + 1, { start: group.start, group }];
    } else if (c === "|") {
      top.chooses = true;
      [i, last] = [i + 1, undefined];
    } else {
      const end = c === "\\"
        ? escapeEnd(source, i)
        : c === "["
        ? classEnd(source, i, flags.includes("v"))
        : i + 1;
      [i, last] = [end, { start: i }];
    }
  }
  return undefined;
}
