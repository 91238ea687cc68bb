/**
 * browser_snapshot's `since`: what changed between two outlines of the same page, line by line.
 * A line is known by its ref when it has one (`[ref=e12]` at its end), else by the nearest
 * ancestor line's ref and its own text. Pure.
 */
import { outlineHeader } from "../../../../protocol/browser_methods/outline_header.ts";

/** A line's trailing ref; `- text:` lines never have one (their text is the page's). */
const TRAILING_REF = /\[ref=((?:f\d+)?(?:e\d+)?)\]$/;

interface KeyedLine {
  key: string;
  line: string;
  /** The frame documents (`k`) the line's own ref and its ancestors' refs name (`f<k>…`). */
  frames: number[];
}

/** A line hub writes where an outline stopped at its budget (a document's or the tab's). */
const STOPPED = /^ *# outline stopped:/m;

/** What a diff says when either outline stopped early. */
const STOPPED_NOTE = "# an outline stopped at its size limit: lines past that point are not " +
  "compared, and none is listed as removed";

/** The `k` of a ref naming a frame or an element of one (`f3`, `f3e7`). */
const FRAME_OF = /^f(\d+)/;

/**
 * The changes from `before` to `after` (both full outlines, header first), in `after`'s order:
 * `+ <line>` added, `- <line>` removed (where it stood among the lines both have), `~ <line>`
 * changed (same element, other text; the new line). Each line keeps its indentation after the
 * mark. The answer starts with `after`'s header and `# changes since <id>`, or is the header and
 * `# no changes since <id>`. `unread` holds the frame documents (`k`) whose content `after` could
 * not read (snapshot_compose.ts, its iframe line marked `[not read]`): their lines are not listed
 * as removed, since nothing says they are gone.
 */
export function diffOutlines(
  before: string,
  after: string,
  sinceId: string,
  header: { title: string; url: string },
  unread: ReadonlySet<number> = new Set(),
): string {
  const old = keyLines(before);
  const now = keyLines(after);
  const oldByKey = new Map(old.map((l) => [l.key, l]));
  const nowKeys = new Set(now.map((l) => l.key));
  // Removed lines, each after the last line before it that both outlines have ("" = the start).
  const removedAfter = new Map<string, string[]>();
  let anchor = "";
  // An outline that stopped at its budget does not hold what lies past that point: nothing
  // there is known to be gone, so no removal is listed.
  const stopped = STOPPED.test(before) || STOPPED.test(after);
  for (const { key, line, frames } of old) {
    if (nowKeys.has(key)) anchor = key;
    else if (!stopped && !frames.some((k) => unread.has(k))) {
      removedAfter.set(anchor, [...(removedAfter.get(anchor) ?? []), line]);
    }
  }
  const changes: string[] = [];
  const flush = (at: string) => {
    for (const line of removedAfter.get(at) ?? []) changes.push(`- ${line}`);
  };
  flush("");
  for (const { key, line } of now) {
    const was = oldByKey.get(key);
    if (!was) changes.push(`+ ${line}`);
    else if (was.line !== line) changes.push(`~ ${line}`);
    if (was) flush(key);
  }
  const head = outlineHeader(header.title, header.url);
  const note = stopped ? [STOPPED_NOTE] : [];
  if (changes.length === 0) return [head, `# no changes since ${sinceId}`, ...note].join("\n");
  return [head, `# changes since ${sinceId}`, ...note, ...changes].join("\n");
}

/**
 * The outline's lines (header lines left out) with their keys: `ref:<ref>`, or
 * `<ancestor ref>|<text>#<occurrence>` for a line without a ref.
 */
export function keyLines(outline: string): KeyedLine[] {
  const keyed: KeyedLine[] = [];
  const seen = new Map<string, number>();
  const refs: { depth: number; ref: string }[] = []; // the ancestors with refs, nearest last
  for (const line of outline.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const body = line.trimStart();
    const depth = line.length - body.length;
    while (refs.length > 0 && refs[refs.length - 1].depth >= depth) refs.pop();
    const ref = body.startsWith("- text:") ? undefined : TRAILING_REF.exec(body)?.[1];
    if (ref) refs.push({ depth, ref });
    const frames = refs.flatMap(({ ref }) => {
      const k = FRAME_OF.exec(ref)?.[1];
      return k === undefined ? [] : [Number(k)];
    });
    if (ref) {
      keyed.push({ key: `ref:${ref}`, line, frames });
      continue;
    }
    const base = `${refs[refs.length - 1]?.ref ?? ""}|${body}`;
    const count = (seen.get(base) ?? 0) + 1;
    seen.set(base, count);
    keyed.push({ key: `${base}#${count}`, line, frames });
  }
  return keyed;
}
