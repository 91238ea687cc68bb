/**
 * A unified diff of two texts, for `hub setup --dry-run`: `--- path` / `+++ path` and hunks with
 * three lines of context. Setup changes one entry, so the lines both texts share at the start and
 * at the end are set aside first and only the middle is compared (bounded: a middle too long to
 * compare is shown as all removed, then all added). What is shown is bounded for a terminal or a log:
 * each line clipped to MAX_LINE characters around where it changed (a minified ~/.claude.json is
 * one line of megabytes), at most MAX_DIFF_LINES lines, and every line passed through `mask` first
 * (run.ts hides secrets).
 */

const CONTEXT = 3;
/** Lines of the changed middle compared line by line at most (per side); past it, replaced whole. */
const MAX_COMPARED_LINES = 2000;

/** Characters of one line shown at most. */
export const MAX_LINE = 200;
/** Lines of diff shown at most. */
export const MAX_DIFF_LINES = 200;

type Op = { kind: " " | "-" | "+"; line: string };

function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** The edit script of the middle parts (longest common subsequence). */
function middleOps(a: string[], b: string[]): Op[] {
  if (a.length > MAX_COMPARED_LINES || b.length > MAX_COMPARED_LINES) {
    return [
      ...a.map((line) => ({ kind: "-" as const, line })),
      ...b.map((line) => ({ kind: "+" as const, line })),
    ];
  }
  const table = Array.from({ length: a.length + 1 }, () => new Uint32Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      table[i][j] = a[i] === b[j]
        ? table[i + 1][j + 1] + 1
        : Math.max(table[i + 1][j], table[i][j + 1]);
    }
  }
  const ops: Op[] = [];
  let i = 0, j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      ops.push({ kind: " ", line: a[i] });
      i++, j++;
    } else if (i < a.length && (j === b.length || table[i + 1][j] >= table[i][j + 1])) {
      ops.push({ kind: "-", line: a[i++] });
    } else ops.push({ kind: "+", line: b[j++] });
  }
  return ops;
}

function allOps(a: string[], b: string[]): Op[] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let end = 0;
  while (
    end < a.length - start && end < b.length - start &&
    a[a.length - 1 - end] === b[b.length - 1 - end]
  ) end++;
  const same = (lines: string[]) => lines.map((line) => ({ kind: " " as const, line }));
  return [
    ...same(a.slice(0, start)),
    ...middleOps(a.slice(start, a.length - end), b.slice(start, b.length - end)),
    ...same(a.slice(a.length - end)),
  ];
}

/** A line over MAX_LINE characters clipped around where it first differs from `other`. */
export function clipLine(line: string, other?: string): string {
  if (line.length <= MAX_LINE) return line;
  let at = 0;
  if (other !== undefined) {
    while (at < line.length && at < other.length && line[at] === other[at]) at++;
  }
  const from = Math.max(0, Math.min(at - MAX_LINE / 4, line.length - MAX_LINE));
  const to = from + MAX_LINE;
  return (from > 0 ? `…(${from} chars)` : "") + line.slice(from, to) +
    (to < line.length ? `…(${line.length - to} chars)` : "");
}

/** The line an added or removed one replaces (or is replaced by), to clip both alike. */
function partner(part: Op[], k: number): string | undefined {
  const op = part[k];
  if (op.kind === "-") return part.slice(k + 1).find((o) => o.kind === "+")?.line;
  if (op.kind === "+") return part.slice(0, k).reverse().find((o) => o.kind === "-")?.line;
  return undefined;
}

/** The hunks of `ops`: each change with up to CONTEXT unchanged lines around it. */
function hunks(ops: Op[], mask: (line: string) => string): string[] {
  const out: string[] = [];
  let index = 0;
  while (index < ops.length) {
    const first = ops.findIndex((op, k) => k >= index && op.kind !== " ");
    if (first < 0) break;
    const from = Math.max(index, first - CONTEXT);
    let to = first;
    // Extend while the next change is close enough to share context.
    for (let k = first; k < ops.length; k++) {
      if (ops[k].kind !== " ") to = k;
      else if (k - to > 2 * CONTEXT) break;
    }
    const stop = Math.min(ops.length, to + CONTEXT + 1);
    const before = ops.slice(0, from);
    const oldStart = before.filter((op) => op.kind !== "+").length;
    const newStart = before.filter((op) => op.kind !== "-").length;
    const part = ops.slice(from, stop);
    const oldCount = part.filter((op) => op.kind !== "+").length;
    const newCount = part.filter((op) => op.kind !== "-").length;
    const at = (start: number, count: number) => `${count === 0 ? start : start + 1},${count}`;
    out.push(`@@ -${at(oldStart, oldCount)} +${at(newStart, newCount)} @@`);
    part.forEach((op, k) => {
      const other = partner(part, k);
      out.push(op.kind + clipLine(mask(op.line), other === undefined ? undefined : mask(other)));
    });
    index = stop;
  }
  return out;
}

/** The unified diff from `before` to `after` (empty when they are equal), bounded as said above. */
export function unifiedDiff(
  path: string,
  before: string,
  after: string,
  mask: (line: string) => string = (line) => line,
): string {
  if (before === after) return "";
  const body = hunks(allOps(splitLines(before), splitLines(after)), mask);
  if (body.length > MAX_DIFF_LINES) {
    const more = body.length - MAX_DIFF_LINES;
    body.splice(MAX_DIFF_LINES, more, `…(${more} more lines of diff)`);
  }
  return [before === "" ? "--- /dev/null" : `--- ${path}`, `+++ ${path}`, ...body].join("\n");
}
