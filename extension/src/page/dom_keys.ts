/**
 * KeyboardEvent fields for a key as browser_press_key names it (a `KeyboardEvent.key` value):
 * its physical `code`, the legacy `keyCode`, and whether it types a character. Pure data.
 */

export interface KeyInfo {
  /** The canonical `KeyboardEvent.key`. */
  key: string;
  code: string;
  keyCode: number;
  /** Types a character (one code point, such as "a", "A", "1", " ", "/"). */
  printable: boolean;
  /** `KeyboardEvent.location`: 1 for the left modifier keys, else 0. */
  location: number;
}

/** Named keys: `key` → [code, keyCode]. */
const NAMED: Record<string, [string, number]> = {
  Enter: ["Enter", 13],
  Tab: ["Tab", 9],
  Escape: ["Escape", 27],
  Backspace: ["Backspace", 8],
  Delete: ["Delete", 46],
  Insert: ["Insert", 45],
  Home: ["Home", 36],
  End: ["End", 35],
  PageUp: ["PageUp", 33],
  PageDown: ["PageDown", 34],
  ArrowUp: ["ArrowUp", 38],
  ArrowDown: ["ArrowDown", 40],
  ArrowLeft: ["ArrowLeft", 37],
  ArrowRight: ["ArrowRight", 39],
  Shift: ["ShiftLeft", 16],
  Control: ["ControlLeft", 17],
  Alt: ["AltLeft", 18],
  Meta: ["MetaLeft", 91],
  CapsLock: ["CapsLock", 20],
  ContextMenu: ["ContextMenu", 93],
  ...Object.fromEntries(
    Array.from({ length: 12 }, (_, i) => [`F${i + 1}`, [`F${i + 1}`, 112 + i]]),
  ),
};

const MODIFIERS = new Set(["Shift", "Control", "Alt", "Meta"]);

/** Other spellings agents use → the `KeyboardEvent.key` value. */
const ALIASES: Record<string, string> = {
  esc: "Escape",
  return: "Enter",
  space: " ",
  spacebar: " ",
  up: "ArrowUp",
  down: "ArrowDown",
  left: "ArrowLeft",
  right: "ArrowRight",
  del: "Delete",
  ctrl: "Control",
  cmd: "Meta",
  command: "Meta",
  option: "Alt",
  pgup: "PageUp",
  pgdn: "PageDown",
};

/** Punctuation (unshifted, shifted) → [code, keyCode] on a US layout. */
const PUNCTUATION: Record<string, [string, number]> = {};
for (
  const [chars, code, keyCode] of [
    [" ", "Space", 32],
    ["-_", "Minus", 189],
    ["=+", "Equal", 187],
    ["[{", "BracketLeft", 219],
    ["]}", "BracketRight", 221],
    ["\\|", "Backslash", 220],
    [";:", "Semicolon", 186],
    ["'\"", "Quote", 222],
    [",<", "Comma", 188],
    [".>", "Period", 190],
    ["/?", "Slash", 191],
    ["`~", "Backquote", 192],
  ] as const
) for (const char of chars) PUNCTUATION[char] = [code, keyCode];
const SHIFTED_DIGITS = ")!@#$%^&*(";

function character(key: string): KeyInfo {
  const info = (code: string, keyCode: number) => ({
    key,
    code,
    keyCode,
    printable: true,
    location: 0,
  });
  if (/^[a-z]$/i.test(key)) return info(`Key${key.toUpperCase()}`, key.toUpperCase().charCodeAt(0));
  if (/^[0-9]$/.test(key)) return info(`Digit${key}`, key.charCodeAt(0));
  const shifted = SHIFTED_DIGITS.indexOf(key);
  if (shifted >= 0) return info(`Digit${shifted}`, 48 + shifted);
  const punctuation = PUNCTUATION[key];
  return punctuation ? info(...punctuation) : info("", 0);
}

/** The key's event fields, or undefined when `key` is neither one character nor a known name. */
export function keyInfo(key: string): KeyInfo | undefined {
  if ([...key].length === 1) return character(key);
  const name = Object.hasOwn(NAMED, key) ? key : canonicalName(key);
  if (name === undefined) return undefined;
  if (name === " ") return character(" ");
  const [code, keyCode] = NAMED[name];
  return { key: name, code, keyCode, printable: false, location: MODIFIERS.has(name) ? 1 : 0 };
}

/** A named key spelled in another case or by an alias ("enter", "Esc"), or undefined. */
function canonicalName(key: string): string | undefined {
  const lower = key.toLowerCase();
  if (Object.hasOwn(ALIASES, lower)) return ALIASES[lower];
  return Object.keys(NAMED).find((name) => name.toLowerCase() === lower);
}

/** The named keys, for error messages. */
export const NAMED_KEYS = Object.keys(NAMED);

/** INVALID_KEY's message for `key` (the kit's synthetic keys and the worker's trusted ones). */
export function unknownKeyMessage(key: string): string {
  return `"${key}" is not a key browser_press_key knows. Pass one character ("a", "A", "1", " ", ` +
    `"/") or a KeyboardEvent.key name: ${NAMED_KEYS.join(", ")}.`;
}
