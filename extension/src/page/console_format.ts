/**
 * Console arguments as one line of text, the way DevTools would print them: `%s %d %i %f %o %O %c`
 * substitutions, strings as they are, everything else through a safe JSON-ish formatter.
 *
 * browser_get_console_logs has the debugger run it in the page on the logged values themselves,
 * once per entry it returns, so it must not change the page: it stops once the text is `max`
 * characters long, reads only own data properties (never calls getters), marks cycles, limits
 * depth and items, and never throws (a value it cannot read prints as `[unreadable]`).
 *
 * The page gets it as source text (`formatSource`): each function below uses only its arguments
 * and the page's globals, and reaches the others through the kit `k` it is given, so the kit's
 * functions and limits written out as literal text run the same in any page.
 */

/** The most characters one console entry keeps. */
export const MAX_ENTRY_CHARS = 2000;

/** Text up to a budget: `full()` once it has `max` characters, `cut` if more came. */
interface Writer {
  text: string;
  cut: boolean;
  full(): boolean;
  write(part: string): void;
}

/** The formatter's parts; each function takes the kit first to reach the others. */
export interface Kit {
  limits: { depth: number; items: number; cut: string };
  writer: typeof writer;
  formatAll: typeof formatAll;
  substitute: typeof substitute;
  numeric: typeof numeric;
  formatValue: typeof formatValue;
  formatObject: typeof formatObject;
  simpleObject: typeof simpleObject;
  describeNode: typeof describeNode;
  writeItems: typeof writeItems;
  writeProperties: typeof writeProperties;
  itemOf: typeof itemOf;
  firstItems: typeof firstItems;
  constructorName: typeof constructorName;
  functionName: typeof functionName;
}

function writer(max: number): Writer {
  const out: Writer = {
    text: "",
    cut: false,
    full: () => out.text.length >= max,
    write(part) {
      const room = max - out.text.length;
      if (part.length > room) out.cut = true;
      out.text += part.length > room ? part.slice(0, Math.max(room, 0)) : part;
    },
  };
  return out;
}

/** All arguments: a leading string's directives filled in, then the rest, space-separated. */
function formatAll(k: Kit, args: readonly unknown[], max: number): string {
  const out = k.writer(max);
  try {
    let rest = 0;
    if (typeof args[0] === "string") {
      rest = k.substitute(k, args[0], args, out);
    }
    for (let i = rest; i < args.length && !out.full(); i++) {
      if (i > 0) out.write(" ");
      if (typeof args[i] === "string") out.write(args[i] as string);
      else k.formatValue(k, args[i], out, 0, []);
    }
  } catch {
    out.write("[unreadable]");
  }
  return out.cut ? out.text + k.limits.cut : out.text;
}

/** Writes the format string with its `%` directives filled in; returns the next unused arg. */
function substitute(k: Kit, format: string, args: readonly unknown[], out: Writer): number {
  let next = 1;
  let last = 0;
  const pattern = /%([sdifoOc%])/g;
  for (let match = pattern.exec(format); match && !out.full(); match = pattern.exec(format)) {
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
      else k.formatValue(k, arg, out, 1, []);
    } else if (directive === "d" || directive === "i") {
      out.write(String(Math.trunc(k.numeric(arg))));
    } else if (directive === "f") {
      out.write(String(k.numeric(arg)));
    } else {
      k.formatValue(k, arg, out, 0, []);
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
function formatValue(
  k: Kit,
  value: unknown,
  out: Writer,
  depth: number,
  ancestors: object[],
): void {
  if (out.full()) return;
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
      out.write(`[function ${k.functionName(value)}]`);
      return;
    case "object":
      if (value !== null) return k.formatObject(k, value, out, depth, ancestors);
      out.write("null");
      return;
    default:
      out.write(String(value)); // number, boolean, undefined
  }
}

function formatObject(k: Kit, value: object, out: Writer, depth: number, ancestors: object[]) {
  try {
    if (ancestors.includes(value)) return out.write("[circular]");
    const simple = k.simpleObject(k, value, depth === 0);
    if (simple !== undefined) return out.write(simple);
    const name = k.constructorName(k, value);
    if (depth >= k.limits.depth) return out.write(`[${name || "Object"}]`);
    const inner = [...ancestors, value];
    if (Array.isArray(value) || (ArrayBuffer.isView(value) && !(value instanceof DataView))) {
      const list = value as ArrayLike<unknown>;
      if (name !== "Array") out.write(`${name}(${list.length}) `);
      const items = { size: list.length, item: (i: number) => k.itemOf(list, i) };
      k.writeItems(k, { ...items, open: "[", close: "]" }, out, depth, inner);
    } else if (value instanceof Map) {
      out.write(`Map(${value.size}) `);
      const entries = k.firstItems(k, Map.prototype.entries.call(value));
      const items = { size: value.size, item: (i: number) => entries[i], pairJoin: " => " };
      k.writeItems(k, { ...items, open: "{", close: "}" }, out, depth, inner);
    } else if (value instanceof Set) {
      out.write(`Set(${value.size}) `);
      const values = k.firstItems(k, Set.prototype.values.call(value));
      const items = { size: value.size, item: (i: number) => values[i] };
      k.writeItems(k, { ...items, open: "{", close: "}" }, out, depth, inner);
    } else {
      if (name && name !== "Object") out.write(`${name} `);
      k.writeProperties(k, value, out, depth, inner);
    }
  } catch {
    out.write("[unreadable]");
  }
}

/** Errors (with their stack at the top level), dates, regexps and DOM nodes as short texts. */
function simpleObject(k: Kit, value: object, top: boolean): string | undefined {
  if (value instanceof Error) {
    const stack = value.stack;
    if (top && typeof stack === "string" && stack) return stack;
    return `${String(value.name)}: ${String(value.message)}`;
  }
  if (value instanceof Date) {
    return isNaN(value.getTime()) ? "Invalid Date" : value.toISOString();
  }
  if (value instanceof RegExp) return String(value);
  if (typeof Node === "function" && value instanceof Node) return k.describeNode(value);
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

/** The items of a list, map or set between `open` and `close`; pairs joined by `pairJoin`. */
interface Items {
  size: number;
  item(i: number): unknown;
  open: string;
  close: string;
  pairJoin?: string;
}

function writeItems(k: Kit, items: Items, out: Writer, depth: number, ancestors: object[]) {
  out.write(items.open);
  const shown = Math.min(items.size, k.limits.items);
  for (let i = 0; i < shown && !out.full(); i++) {
    if (i > 0) out.write(", ");
    const value = items.item(i);
    if (items.pairJoin) {
      const [key, val] = value as [unknown, unknown];
      k.formatValue(k, key, out, depth + 1, ancestors);
      out.write(items.pairJoin);
      k.formatValue(k, val, out, depth + 1, ancestors);
    } else {
      k.formatValue(k, value, out, depth + 1, ancestors);
    }
  }
  if (items.size > shown) out.write(`, …${items.size - shown} more`);
  out.write(items.close);
}

function writeProperties(k: Kit, value: object, out: Writer, depth: number, ancestors: object[]) {
  const keys = Object.keys(value);
  out.write("{");
  const shown = Math.min(keys.length, k.limits.items);
  for (let i = 0; i < shown && !out.full(); i++) {
    if (i > 0) out.write(", ");
    out.write(`${JSON.stringify(keys[i])}: `);
    const descriptor = Object.getOwnPropertyDescriptor(value, keys[i]);
    if (descriptor && !("value" in descriptor)) out.write("[getter]");
    else k.formatValue(k, descriptor?.value, out, depth + 1, ancestors);
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

/** The first `items` + 1 items of an iterator (enough to say that more follow). */
function firstItems<T>(k: Kit, iterator: Iterator<T>): T[] {
  const items: T[] = [];
  for (
    let step = iterator.next();
    !step.done && items.length <= k.limits.items;
    step = iterator.next()
  ) {
    items.push(step.value);
  }
  return items;
}

function constructorName(k: Kit, value: object): string {
  try {
    const proto = Object.getPrototypeOf(value);
    if (proto === null) return "";
    const ctor = Object.getOwnPropertyDescriptor(proto, "constructor")?.value;
    return typeof ctor === "function" ? k.functionName(ctor) : "";
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

const KIT: Kit = Object.freeze({
  limits: Object.freeze({ depth: 4, items: 100, cut: "…[truncated]" }),
  writer,
  formatAll,
  substitute,
  numeric,
  formatValue,
  formatObject,
  simpleObject,
  describeNode,
  writeItems,
  writeProperties,
  itemOf,
  firstItems,
  constructorName,
  functionName,
});

/** Formats console arguments as one text of at most `max` characters (plus a cut marker). */
export function formatArgs(args: readonly unknown[], max: number = MAX_ENTRY_CHARS): string {
  return formatAll(KIT, args, max);
}

/**
 * `formatArgs` as the source of a function of the logged values, for the debugger to run in the
 * page (`Runtime.callFunctionOn`): the kit's functions and limits written out as literal text.
 */
export function formatSource(max: number): string {
  const parts = Object.entries(KIT).map(([name, part]) =>
    `${JSON.stringify(name)}: ${typeof part === "function" ? String(part) : JSON.stringify(part)}`
  );
  return `function (...args) { const k = { ${parts.join(", ")} }; ` +
    `return k.formatAll(k, args, ${Number(max)}); }`;
}
