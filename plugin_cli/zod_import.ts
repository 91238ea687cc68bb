/**
 * Lets esbuild keep only the parts of zod an adapter uses. `import { z } from "@tabhub/sdk"` (or
 * from "zod") binds `z` as a value exported by another module, and esbuild then bundles all of
 * zod (every locale, JSON Schema import, the compiler): about 380 KB. Written as
 * `import * as z from "zod"`, each `z.object`, `z.string`... is a static import that tree shaking
 * follows. The two forms give the same functions; the SDK's jitless setting applies to both (the
 * generated adapter entry loads it first, see build.ts).
 *
 * Only plain top-level import lines are rewritten; anything else (a re-export of `z`, `z` passed
 * around as a value) still bundles and runs, just without the saving.
 */

/** Modules whose named export `z` is zod's API. */
const Z_SOURCES = new Set(["@tabhub/sdk", "@hub/sdk", "zod"]);

// `import { a, z as zod, type B } from "source";` at the start of a line.
const IMPORT_LINE = /^([ \t]*)import[ \t]*\{([^{}]*)\}[ \t]*from[ \t]*(["'])([^"'\n]+)\3[ \t]*;?/gm;

interface Specifier {
  text: string;
  imported: string;
  local: string;
  typeOnly: boolean;
}

// `name`, `name as local`, `type Name`, `type Name as Local`.
const SPECIFIER = /^(type\s+)?[A-Za-z_$][\w$]*(\s+as\s+[A-Za-z_$][\w$]*)?$/;

/** One specifier; null when the list holds something else (a comment, say). */
function parseSpecifier(raw: string): Specifier | undefined | null {
  const text = raw.trim();
  if (text === "") return undefined;
  if (!SPECIFIER.test(text)) return null;
  const typeOnly = /^type\s/.test(text);
  const body = typeOnly ? text.replace(/^type\s+/, "") : text;
  const [imported, local = imported] = body.split(/\s+as\s+/).map((s) => s.trim());
  return { text, imported, local, typeOnly };
}

/** The rewritten import line, or undefined when it has no value import of `z`. */
function rewriteLine(line: string, indent: string, list: string, quote: string, source: string) {
  if (!Z_SOURCES.has(source)) return undefined;
  const parsed = list.split(",").map(parseSpecifier);
  if (parsed.includes(null)) return undefined;
  const specifiers = parsed.filter((s): s is Specifier => !!s);
  const zod = specifiers.find((s) => s.imported === "z" && !s.typeOnly);
  if (!zod) return undefined;
  const rest = specifiers.filter((s) => s !== zod).map((s) => s.text);
  const namespace = `import * as ${zod.local} from ${quote}zod${quote};`;
  // The rest stays imported (also when empty: the module's side effects stay), and the line
  // breaks of a multi-line import stay too.
  const breaks = "\n".repeat(line.split("\n").length - 1);
  return `${indent}${namespace} import { ${
    rest.join(", ")
  } } from ${quote}${source}${quote};${breaks}`;
}

/**
 * Rewrites `import { z } from "@tabhub/sdk" | "zod"` lines of a plugin source file into a
 * namespace import of zod. Returns the source unchanged when there is nothing to rewrite. Keeps
 * the line count, so esbuild's messages point at the author's lines.
 */
export function namespaceZodImports(source: string): string {
  return source.replace(
    IMPORT_LINE,
    (line, indent: string, list: string, quote: string, from: string) =>
      rewriteLine(line, indent, list, quote, from) ?? line,
  );
}
