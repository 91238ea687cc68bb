/**
 * browser_snapshot's `since`: what changed between two outlines of the same page, line by line.
 * A line is known by its ref when it has one (`[ref=e12]` at its end), else by the nearest
 * ancestor line's ref and its own text. Pure.
 */
import { headerLine } from "./snapshot_compose.ts";

/** A line's trailing ref; `- text:` lines never have one (their text is the page's). */
const TRAILING_REF = /\[ref=((?:f\d+)?(?:e\d+)?)\]$/;

interface KeyedLine {
  key: string;
  line: string;
}

/**
 * The changes from `before` to `after` (both full outlines, header first), in `after`'s order:
 * `+ <line>` added, `- <line>` removed (where it stood among the lines both have), `~ <line>`
 * changed (same element, other text; the new line). Each line keeps its indentation after the
 * mark. The answer starts with `after`'s header and `# changes since <id>`, or is the header and
 * `# no changes since <id>`.
 */
export function diffOutlines(
  before: string,
  after: string,
  sinceId: string,
  header: { title: string; url: string },
): string {
  const old = keyLines(before);
  const now = keyLines(after);
  const oldByKey = new Map(old.map((l) => [l.key, l]));
  const nowKeys = new Set(now.map((l) => l.key));
  // Removed lines, each after the last line before it that both outlines have ("" = the start).
  const removedAfter = new Map<string, string[]>();
  let anchor = "";
  for (const { key, line } of old) {
    if (nowKeys.has(key)) anchor = key;
    else removedAfter.set(anchor, [...(removedAfter.get(anchor) ?? []), line]);
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
  const head = headerLine(header.title, header.url);
  if (changes.length === 0) return `${head}\n# no changes since ${sinceId}`;
  return [head, `# changes since ${sinceId}`, ...changes].join("\n");
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
    if (ref) {
      keyed.push({ key: `ref:${ref}`, line });
      refs.push({ depth, ref });
      continue;
    }
    const base = `${refs[refs.length - 1]?.ref ?? ""}|${body}`;
    const count = (seen.get(base) ?? 0) + 1;
    seen.set(base, count);
    keyed.push({ key: `${base}#${count}`, line });
  }
  return keyed;
}
