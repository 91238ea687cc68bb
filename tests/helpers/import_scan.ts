/**
 * The module specifiers a TypeScript source imports: `import … from "x"`, `import "x"`,
 * `export … from "x"`, `import("x")` and `typeof import("x")`. A small tokenizer skips comments,
 * string contents, template literals and regular expressions, so text that only looks like an
 * import (a template that writes a plugin's entry file, an example in a comment) is not counted.
 */

type Token =
  | { kind: "word"; text: string }
  | { kind: "string"; text: string }
  | { kind: "punct"; text: string }
  | { kind: "other" };

/** After these words a `/` starts a regular expression, not a division. */
const BEFORE_REGEX = new Set([
  "return",
  "typeof",
  "instanceof",
  "in",
  "of",
  "new",
  "delete",
  "void",
  "throw",
  "case",
  "do",
  "else",
  "yield",
  "await",
]);

const WORD_START = /[A-Za-z_$\u0080-\uffff]/;
const WORD_PART = /[\w$\u0080-\uffff]/;

class Tokenizer {
  private i = 0;
  /** One entry per open `{`: true when it is a template literal's `${`. */
  private braces: boolean[] = [];
  readonly tokens: Token[] = [];

  constructor(private readonly src: string) {}

  run(): Token[] {
    while (this.i < this.src.length) this.step();
    return this.tokens;
  }

  private step(): void {
    const { src } = this;
    const c = src[this.i];
    if (/\s/.test(c)) {
      this.i++;
    } else if (c === "/" && src[this.i + 1] === "/") {
      const end = src.indexOf("\n", this.i);
      this.i = end < 0 ? src.length : end;
    } else if (c === "/" && src[this.i + 1] === "*") {
      const end = src.indexOf("*/", this.i + 2);
      this.i = end < 0 ? src.length : end + 2;
    } else if (c === "'" || c === '"') {
      this.tokens.push({ kind: "string", text: this.quoted(c) });
    } else if (c === "`") {
      this.i++;
      this.template();
    } else if (c === "/" && this.regexAllowed() && this.regex()) {
      this.tokens.push({ kind: "other" });
    } else if (WORD_START.test(c)) {
      const start = this.i;
      while (this.i < src.length && WORD_PART.test(src[this.i])) this.i++;
      this.tokens.push({ kind: "word", text: src.slice(start, this.i) });
    } else if (/[0-9]/.test(c)) {
      while (this.i < src.length && /[\w.]/.test(src[this.i])) this.i++;
      this.tokens.push({ kind: "other" });
    } else {
      this.punct(c);
    }
  }

  private punct(c: string): void {
    this.i++;
    if (c === "{") this.braces.push(false);
    if (c === "}" && this.braces.pop() === true) {
      this.template(); // the `}` that closes a template's `${`: the template goes on
      return;
    }
    this.tokens.push({ kind: "punct", text: c });
  }

  /** Reads a quoted string starting at the quote; returns its (unescaped enough) content. */
  private quoted(quote: string): string {
    const { src } = this;
    let text = "";
    this.i++;
    while (this.i < src.length && src[this.i] !== quote && src[this.i] !== "\n") {
      if (src[this.i] === "\\") {
        text += src[this.i + 1] ?? "";
        this.i += 2;
      } else text += src[this.i++];
    }
    this.i++;
    return text;
  }

  /** Reads template text up to its end or to a `${` (then tokenizing resumes inside it). */
  private template(): void {
    const { src } = this;
    while (this.i < src.length) {
      const c = src[this.i];
      if (c === "\\") {
        this.i += 2;
      } else if (c === "`") {
        this.i++;
        this.tokens.push({ kind: "other" });
        return;
      } else if (c === "$" && src[this.i + 1] === "{") {
        this.i += 2;
        this.braces.push(true);
        return;
      } else this.i++;
    }
  }

  private regexAllowed(): boolean {
    const prev = this.tokens.at(-1);
    if (!prev) return true;
    if (prev.kind === "word") return BEFORE_REGEX.has(prev.text);
    if (prev.kind === "punct") return !")]}".includes(prev.text);
    return false;
  }

  /** Skips a regular expression literal; false (nothing consumed) when the line has no end. */
  private regex(): boolean {
    const { src } = this;
    let j = this.i + 1;
    let inClass = false;
    while (j < src.length && src[j] !== "\n") {
      const c = src[j];
      if (c === "\\") j++;
      else if (c === "[") inClass = true;
      else if (c === "]") inClass = false;
      else if (c === "/" && !inClass) {
        j++;
        while (j < src.length && /[a-z]/.test(src[j])) j++;
        this.i = j;
        return true;
      }
      j++;
    }
    return false;
  }
}

function isWord(token: Token | undefined, text: string): boolean {
  return token?.kind === "word" && token.text === text;
}

function isPunct(token: Token | undefined, text: string): boolean {
  return token?.kind === "punct" && token.text === text;
}

/** Every module specifier `source` imports or re-exports, in order of appearance. */
export function importSpecifiers(source: string): string[] {
  const tokens = new Tokenizer(source).run();
  const found: string[] = [];
  tokens.forEach((token, i) => {
    if (isPunct(tokens[i - 1], ".")) return; // `x.from "…"` cannot occur; `x.import(` is a call
    const next = tokens[i + 1];
    if (isWord(token, "from") && next?.kind === "string") found.push(next.text);
    if (!isWord(token, "import")) return;
    if (next?.kind === "string") found.push(next.text); // import "x";
    const arg = tokens[i + 2];
    if (isPunct(next, "(") && arg?.kind === "string") found.push(arg.text); // import("x")
  });
  return found;
}
