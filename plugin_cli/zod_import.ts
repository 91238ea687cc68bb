/**
 * Lets esbuild keep only the parts of zod an adapter uses. `import { z } from "@tabhub/sdk"` (or
 * from "zod") binds `z` as a value exported by another module, and esbuild then bundles all of
 * zod (every locale, JSON Schema import, the compiler): about 380 KB. Written as
 * `import * as z from "zod"`, each `z.object`, `z.string`... is a static import that tree shaking
 * follows. The two forms give the same functions; the SDK's jitless setting applies to both (the
 * generated adapter entry loads it first, see build.ts).
 *
 * Only the module's leading import block is read: the import statements before its first other
 * statement, past comments, blank lines and a shebang. Imports live there in ES modules, and the
 * same text in a string, a template literal or a comment further down (a tool description, a code
 * sample) is never touched. Anything else (an import after other code, a re-export of `z`, `z`
 * passed around as a value) still bundles and runs, just without the saving.
 */

/** Modules whose named export `z` is zod's API. */
const Z_SOURCES = new Set(["@tabhub/sdk", "@hub/sdk", "zod"]);

// A whole `import { a, z as zod, type B } from "source";` statement.
const NAMED_IMPORT = /^import\s*\{([^{}]*)\}\s*from\s*(["'])([^"'\n]+)\2\s*;?$/;

// A name in an import clause (`default`, `type`, `as`, `from` and the bound names).
const WORD = /[\p{ID_Start}$_][\p{ID_Continue}$\u200c\u200d]*/uy;

/** The index past whitespace and comments from `i`. */
function skipTrivia(text: string, i: number): number {
  while (i < text.length) {
    if (/\s/.test(text[i])) i++;
    else if (text.startsWith("//", i)) {
      const end = text.indexOf("\n", i);
      i = end < 0 ? text.length : end + 1;
    } else if (text.startsWith("/*", i)) {
      const end = text.indexOf("*/", i + 2);
      i = end < 0 ? text.length : end + 2;
    } else break;
  }
  return i;
}

/** The index past the quoted string opening at `i`; undefined when it does not close on its line. */
function stringEnd(text: string, i: number): number | undefined {
  const quote = text[i];
  for (let j = i + 1; j < text.length; j++) {
    const c = text[j];
    if (c === quote) return j + 1;
    if (c === "\n" || c === "\r") return undefined;
    if (c === "\\") j++;
  }
  return undefined;
}

/** The index past a module specifier's optional `with { ... }` attributes and `;`. */
function statementEnd(text: string, i: number): number | undefined {
  const next = skipTrivia(text, i);
  const keyword = /^(with|assert)\s*\{/.exec(text.slice(next, next + 16));
  if (keyword) {
    let j = next + keyword[0].length;
    while (j < text.length && text[j] !== "}") {
      const end = text[j] === '"' || text[j] === "'" ? stringEnd(text, j) : j + 1;
      if (end === undefined) return undefined;
      j = end;
    }
    if (j >= text.length) return undefined;
    i = j + 1;
  }
  const semicolon = skipTrivia(text, i);
  return text[semicolon] === ";" ? semicolon + 1 : i;
}

/**
 * The end of the static import statement starting at `start` (the word `import`); undefined when
 * it is something else (`import(...)`, `import.meta`, an identifier starting with "import") or
 * holds anything but names, braces, commas, `*`, comments and strings.
 */
function importEnd(text: string, start: number): number | undefined {
  let i = start + "import".length;
  if (/[\p{ID_Continue}$\u200c\u200d]/u.test(text[i] ?? "")) return undefined;
  let depth = 0;
  while ((i = skipTrivia(text, i)) < text.length) {
    const c = text[i];
    if (c === '"' || c === "'") {
      const end = stringEnd(text, i);
      if (end === undefined) return undefined;
      // The module specifier; a string inside braces is an arbitrary export name.
      if (depth === 0) return statementEnd(text, end);
      i = end;
    } else if (c === "{") {
      depth++, i++;
    } else if (c === "}") {
      if (depth === 0) return undefined;
      depth--, i++;
    } else if (c === "," || c === "*") {
      i++;
    } else {
      WORD.lastIndex = i;
      if (!WORD.test(text)) return undefined;
      i = WORD.lastIndex;
    }
  }
  return undefined;
}

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

/** The rewritten import statement, or undefined when it has no value import of `z`. */
function rewriteStatement(statement: string): string | undefined {
  const match = NAMED_IMPORT.exec(statement);
  if (!match) return undefined;
  const [, list, quote, source] = match;
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
  const breaks = "\n".repeat(statement.split("\n").length - 1);
  return `${namespace} import { ${rest.join(", ")} } from ${quote}${source}${quote};${breaks}`;
}

/**
 * Rewrites `import { z } from "@tabhub/sdk" | "zod"` statements of a plugin source file's leading
 * import block into a namespace import of zod. Returns the source unchanged when there is nothing
 * to rewrite. Keeps the line count, so esbuild's messages point at the author's lines.
 */
export function namespaceZodImports(source: string): string {
  let out = "";
  let copied = 0;
  // A shebang line comes before everything else.
  let i = source.startsWith("#!") ? source.indexOf("\n") + 1 || source.length : 0;
  while ((i = skipTrivia(source, i)) < source.length && source.startsWith("import", i)) {
    const end = importEnd(source, i);
    if (end === undefined) break;
    const rewritten = rewriteStatement(source.slice(i, end));
    if (rewritten !== undefined) {
      out += source.slice(copied, i) + rewritten;
      copied = end;
    }
    i = end;
  }
  return copied === 0 ? source : out + source.slice(copied);
}
