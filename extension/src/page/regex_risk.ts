/**
 * The regexes browser_wait_for refuses because their backtracking can run for ever on text a page
 * picks (a regex runs in the page's renderer, which nothing can interrupt): a repeat inside a
 * repeat (`(a+)+`, `(a*)*`, `(\d+,?)+`, `((ab)+c)*`: "star height" 2, as npm's safe-regex judges
 * it) and, where cheap to tell, a repeated choice whose alternatives can match the same text
 * (`(a|aa)+`: one alternative starts with another; `(\w|\d)*`: both start with a character class).
 * A repeat is `*`, `+`, `{n,}` or `{n,m}` with a most of 2 or more; `?` is none. It has false
 * positives (`(\w+\s)+` is slow only on some texts) and misses slow regexes of other shapes (`a*a*a*b`
 * is polynomial): the text a regex runs on is capped too (wait_text.ts). Pure, no dependency.
 */

/** A quantifier at the start of the rest of the source, and the most times it repeats. */
const QUANTIFIER = /^(?:([*+?])|\{(\d+)(?:(,)(\d*))?\})\??/;

/** A group's opening: `(`, `(?:`, `(?=`, `(?!`, `(?<=`, `(?<!`, `(?<name>`, `(?i:`, `(?-i:`. */
const GROUP_OPEN = /^\((?:\?(?:[:=!]|<[=!]|<[^>]*>|[a-zA-Z-]*:))?/;

/** An alternative that starts with a character class (`.`, `[…]`, `\d`, `\w`, `\s`, `\p{…}`…). */
const BROAD_START = /^(?:\.|\[|\\[dDwWsSpP])/;

interface Group {
  start: number;
  /** Where the current alternative starts. */
  altStart: number;
  alternatives: string[];
  /** A repeat is somewhere inside. */
  repeats: boolean;
}

/** Why a regex is refused, and the piece of its source that is the reason. */
export interface RegexRisk {
  kind: "nested" | "overlap";
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

/** Whether two alternatives of a repeated group can match the same text (a cheap guess). */
function overlapping(alternatives: string[]): boolean {
  return alternatives.some((a, i) =>
    alternatives.some((b, j) =>
      i !== j && (b.startsWith(a) || (BROAD_START.test(a) && BROAD_START.test(b)))
    )
  );
}

/** The risk in `source` (a regex that compiles with `flags`), or undefined when none was seen. */
export function regexRisk(source: string, flags = ""): RegexRisk | undefined {
  const root: Group = { start: 0, altStart: 0, alternatives: [], repeats: false };
  const stack = [root];
  let last: { start: number; group?: Group } | undefined;
  for (let i = 0; i < source.length;) {
    const top = stack[stack.length - 1];
    const quantifier = last ? QUANTIFIER.exec(source.slice(i)) : null;
    if (last && quantifier) {
      const end = i + quantifier[0].length;
      if (most(quantifier) >= 2) {
        const piece = source.slice(last.start, end);
        if (last.group?.repeats) return { kind: "nested", piece };
        if (last.group && overlapping(last.group.alternatives)) return { kind: "overlap", piece };
        top.repeats = true;
      }
      [i, last] = [end, undefined];
      continue;
    }
    const c = source[i];
    if (c === "(") {
      const open = GROUP_OPEN.exec(source.slice(i))![0].length;
      stack.push({ start: i, altStart: i + open, alternatives: [], repeats: false });
      [i, last] = [i + open, undefined];
    } else if (c === ")" && stack.length > 1) {
      const group = stack.pop()!;
      group.alternatives.push(source.slice(group.altStart, i));
      stack[stack.length - 1].repeats ||= group.repeats;
      [i, last] = [i + 1, { start: group.start, group }];
    } else if (c === "|") {
      top.alternatives.push(source.slice(top.altStart, i));
      [top.altStart, i, last] = [i + 1, i + 1, undefined];
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
