/**
 * Console arguments as one line of text, the way DevTools would print them: `%s %d %i %f %o %O %c`
 * substitutions, strings as they are, everything else through a safe JSON-ish formatter.
 *
 * browser_get_console_logs has the debugger run it in the page on the logged values themselves,
 * once per entry it returns, so it must not change the page: it stops once the text is `max`
 * characters long, reads only own data properties (never calls getters), marks cycles, limits
 * depth and items, and never throws (a value it cannot read prints as `[unreadable]`). Everything
 * it uses is declared inside `formatArgs`, so its source alone runs in a page; the page side always
 * passes `max`, so the default (a name from outside) is never evaluated there.
 */

/** The most characters one console entry keeps. */
export const MAX_ENTRY_CHARS = 2000;

/** Formats console arguments as one text of at most `max` characters (plus a cut marker). */
export function formatArgs(args: readonly unknown[], max = MAX_ENTRY_CHARS): string {
  const MAX_DEPTH = 4;
  const MAX_ITEMS = 100;
  const CUT = "…[truncated]";

  /** Collects text up to a budget; `full` once it has `max` characters, `cut` if more came. */
  class Writer {
    text = "";
    cut = false;
    constructor(readonly max: number) {}
    get full(): boolean {
      return this.text.length >= this.max;
    }
    write(part: string): void {
      const room = this.max - this.text.length;
      if (part.length > room) this.cut = true;
      this.text += part.length > room ? part.slice(0, Math.max(room, 0)) : part;
    }
  }

  /** Writes the format string with its `%` directives filled in; returns the next unused arg. */
  function substitute(format: string, args: readonly unknown[], out: Writer): number {
    let next = 1;
    let last = 0;
    const pattern = /%([sdifoOc%])/g;
    for (let match = pattern.exec(format); match && !out.full; match = pattern.exec(format)) {
      out.write(format.slice(last, match.index));
      last = pattern.lastIndex;
      const directive = match[1];
      if (directive === "%") {
        out.write("%");
        continue;
      }
      if (next >= args.length) {
        out.write(match[0]);
        continue;
      }
      const arg = args[next++];
      if (directive === "c") continue;
      if (directive === "s") {
        if (typeof arg === "string") out.write(arg);
        else formatValue(arg, out, 1, []);
      } else if (directive === "d" || directive === "i") {
        out.write(String(Math.trunc(numeric(arg))));
      } else if (directive === "f") {
        out.write(String(numeric(arg)));
      } else {
        formatValue(arg, out, 0, []);
      }
    }
    out.write(format.slice(last));
    return next;
  }

  /** A primitive as a number (objects are not converted: that could run page code). */
  function numeric(value: unknown): number {
    const type = typeof value;
    return type === "number" || type === "bigint" || type === "string" || type === "boolean"
      ? Number(value)
      : NaN;
  }

  /** Writes one value; `ancestors` are the objects being written around it (for cycles). */
  function formatValue(value: unknown, out: Writer, depth: number, ancestors: object[]): void {
    if (out.full) return;
    switch (typeof value) {
      case "string":
        out.write(depth === 0 ? value : JSON.stringify(value));
        return;
      case "bigint":
        out.write(`${value}n`);
        return;
      case "symbol":
        out.write(value.toString());
        return;
      case "function":
        out.write(`[function ${functionName(value)}]`);
        return;
      case "object":
        if (value !== null) return formatObject(value, out, depth, ancestors);
        out.write("null");
        return;
      default:
        out.write(String(value)); // number, boolean, undefined
    }
  }

  function formatObject(value: object, out: Writer, depth: number, ancestors: object[]): void {
    try {
      if (ancestors.includes(value)) return out.write("[circular]");
      const simple = simpleObject(value, depth === 0);
      if (simple !== undefined) return out.write(simple);
      const name = constructorName(value);
      if (depth >= MAX_DEPTH) return out.write(`[${name || "Object"}]`);
      const inner = [...ancestors, value];
      if (Array.isArray(value) || (ArrayBuffer.isView(value) && !(value instanceof DataView))) {
        const list = value as ArrayLike<unknown>;
        if (name !== "Array") out.write(`${name}(${list.length}) `);
        writeItems(list.length, (i) => itemOf(list, i), out, depth, inner, "[", "]");
      } else if (value instanceof Map) {
        out.write(`Map(${value.size}) `);
        const entries = firstItems(Map.prototype.entries.call(value));
        writeItems(value.size, (i) => entries[i], out, depth, inner, "{", "}", " => ");
      } else if (value instanceof Set) {
        out.write(`Set(${value.size}) `);
        const items = firstItems(Set.prototype.values.call(value));
        writeItems(value.size, (i) => items[i], out, depth, inner, "{", "}");
      } else {
        if (name && name !== "Object") out.write(`${name} `);
        writeProperties(value, out, depth, inner);
      }
    } catch {
      out.write("[unreadable]");
    }
  }

  /** Errors (with their stack at the top level), dates, regexps and DOM nodes as short texts. */
  function simpleObject(value: object, top: boolean): string | undefined {
    if (value instanceof Error) {
      const stack = value.stack;
      if (top && typeof stack === "string" && stack) return stack;
      return `${String(value.name)}: ${String(value.message)}`;
    }
    if (value instanceof Date) {
      return isNaN(value.getTime()) ? "Invalid Date" : value.toISOString();
    }
    if (value instanceof RegExp) return String(value);
    if (typeof Node === "function" && value instanceof Node) return describeNode(value);
    return undefined;
  }

  function describeNode(node: Node): string {
    if (node.nodeType === 1) {
      const element = node as Element;
      const id = element.id ? `#${element.id}` : "";
      const classes = typeof element.className === "string" && element.className.trim()
        ? "." + element.className.trim().split(/\s+/).join(".")
        : "";
      return `<${element.tagName.toLowerCase()}${id}${classes}>`;
    }
    if (node.nodeType === 3) return `#text ${JSON.stringify((node.nodeValue ?? "").slice(0, 80))}`;
    return node.nodeName;
  }

  function writeItems(
    size: number,
    item: (i: number) => unknown,
    out: Writer,
    depth: number,
    ancestors: object[],
    open: string,
    close: string,
    pairJoin?: string,
  ): void {
    out.write(open);
    const shown = Math.min(size, MAX_ITEMS);
    for (let i = 0; i < shown && !out.full; i++) {
      if (i > 0) out.write(", ");
      const value = item(i);
      if (pairJoin) {
        const [key, val] = value as [unknown, unknown];
        formatValue(key, out, depth + 1, ancestors);
        out.write(pairJoin);
        formatValue(val, out, depth + 1, ancestors);
      } else {
        formatValue(value, out, depth + 1, ancestors);
      }
    }
    if (size > shown) out.write(`, …${size - shown} more`);
    out.write(close);
  }

  function writeProperties(value: object, out: Writer, depth: number, ancestors: object[]): void {
    const keys = Object.keys(value);
    out.write("{");
    const shown = Math.min(keys.length, MAX_ITEMS);
    for (let i = 0; i < shown && !out.full; i++) {
      if (i > 0) out.write(", ");
      out.write(`${JSON.stringify(keys[i])}: `);
      const descriptor = Object.getOwnPropertyDescriptor(value, keys[i]);
      if (descriptor && !("value" in descriptor)) out.write("[getter]");
      else formatValue(descriptor?.value, out, depth + 1, ancestors);
    }
    if (keys.length > shown) out.write(`, …${keys.length - shown} more`);
    out.write("}");
  }

  /** An array item without calling a getter (typed arrays have no own descriptors per index). */
  function itemOf(list: ArrayLike<unknown>, i: number): unknown {
    if (!Array.isArray(list)) return list[i];
    const descriptor = Object.getOwnPropertyDescriptor(list, i);
    if (!descriptor) return undefined;
    return "value" in descriptor ? descriptor.value : "[getter]";
  }

  /** The first MAX_ITEMS + 1 items of an iterator (enough to say that more follow). */
  function firstItems<T>(iterator: Iterator<T>): T[] {
    const items: T[] = [];
    for (
      let step = iterator.next();
      !step.done && items.length <= MAX_ITEMS;
      step = iterator.next()
    ) {
      items.push(step.value);
    }
    return items;
  }

  function constructorName(value: object): string {
    try {
      const proto = Object.getPrototypeOf(value);
      if (proto === null) return "";
      const ctor = Object.getOwnPropertyDescriptor(proto, "constructor")?.value;
      return typeof ctor === "function" ? functionName(ctor) : "";
    } catch {
      return "";
    }
  }

  function functionName(fn: unknown): string {
    try {
      const name = Object.getOwnPropertyDescriptor(fn, "name")?.value;
      return typeof name === "string" && name ? name : "anonymous";
    } catch {
      return "anonymous";
    }
  }

  const out = new Writer(max);
  try {
    let rest = 0;
    if (typeof args[0] === "string") {
      rest = substitute(args[0], args, out);
    }
    for (let i = rest; i < args.length && !out.full; i++) {
      if (i > 0) out.write(" ");
      if (typeof args[i] === "string") out.write(args[i] as string);
      else formatValue(args[i], out, 0, []);
    }
  } catch {
    out.write("[unreadable]");
  }
  return out.cut ? out.text + CUT : out.text;
}
