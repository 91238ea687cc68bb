/**
 * Real keyboard input through the debugger (`Input.dispatchKeyEvent`, `Input.insertText`), so the
 * browser's own behaviour follows a key: Shift+Arrow and Ctrl+A select text, Ctrl+B bolds in a rich
 * text editor, Enter submits a form, and page listeners see `event.isTrusted`. The key's fields
 * come from the kit's key table (page/dom_keys.ts), the one place that knows keys.
 *
 * A chord presses each modifier down first (in the order given, each keydown carrying the
 * modifiers held so far, like a person's fingers), then the key, then lets go in reverse order.
 * A key types its character only when no modifier but Shift is held (Ctrl+A selects, types no
 * "a"). On macOS the browser, not the page, turns editing keys into editing commands, which
 * events sent through the debugger skip: there the common ones travel as the event's `commands`.
 */
import { hubError } from "../../../../protocol/errors.ts";
import type { CdpParams, TabSession } from "../debugger_sessions.ts";
import { type KeyInfo, keyInfo, unknownKeyMessage } from "../../page/dom_keys.ts";
import { type Modifier, modifierBits } from "./trusted_pointer.ts";

/** What a key types when pressed alone (or with Shift): its character, "\r" for Enter. */
function textOf(info: KeyInfo): string | undefined {
  if (info.printable) return info.key;
  return info.key === "Enter" ? "\r" : undefined;
}

/**
 * macOS editing commands of the keys whose editing the browser (not the page) does there, by
 * chord: the held modifiers in the order of their bits (Alt, Control, Meta, Shift) joined with
 * "+", then the key. Copy, cut and paste are not among them: hub never presses those (keyEvents).
 */
const MAC_COMMANDS: Readonly<Record<string, string>> = {
  "Backspace": "deleteBackward",
  "Delete": "deleteForward",
  "Alt+Backspace": "deleteWordBackward",
  "Meta+Backspace": "deleteToBeginningOfLine",
  "Enter": "insertNewline",
  "Tab": "insertTab",
  "Shift+Tab": "insertBacktab",
  "Meta+KeyA": "selectAll",
  "Meta+KeyZ": "undo",
  "Meta+Shift+KeyZ": "redo",
  "Home": "scrollToBeginningOfDocument",
  "End": "scrollToEndOfDocument",
  "Shift+Home": "moveToBeginningOfDocumentAndModifySelection",
  "Shift+End": "moveToEndOfDocumentAndModifySelection",
  "PageUp": "scrollPageUp",
  "PageDown": "scrollPageDown",
};
for (const [side, line, doc] of [["Left", "Left", "Beginning"], ["Right", "Right", "End"]]) {
  const arrow = `Arrow${side}`;
  Object.assign(MAC_COMMANDS, {
    [arrow]: `move${side}`,
    [`Shift+${arrow}`]: `move${side}AndModifySelection`,
    [`Alt+${arrow}`]: `moveWord${side}`,
    [`Alt+Shift+${arrow}`]: `moveWord${side}AndModifySelection`,
    [`Meta+${arrow}`]: `moveTo${line}EndOfLine`,
    [`Meta+Shift+${arrow}`]: `moveTo${line}EndOfLineAndModifySelection`,
  });
  const vertical = side === "Left" ? "Up" : "Down";
  Object.assign(MAC_COMMANDS, {
    [`Arrow${vertical}`]: `move${vertical}`,
    [`Shift+Arrow${vertical}`]: `move${vertical}AndModifySelection`,
    [`Meta+Arrow${vertical}`]: `moveTo${doc}OfDocument`,
    [`Meta+Shift+Arrow${vertical}`]: `moveTo${doc}OfDocumentAndModifySelection`,
  });
}

/** The macOS editing commands of `info` pressed with `held`. */
export function macCommands(info: KeyInfo, held: readonly Modifier[]): string[] {
  const order = [...held].sort((a, b) => modifierBits([a]) - modifierBits([b]));
  const code = info.code || info.key;
  const command = MAC_COMMANDS[[...order, code].join("+")];
  return command ? [command] : [];
}

/**
 * Whether `info` pressed with `held` is a clipboard chord: Control or Meta with C, V or X (any
 * other modifier too: Ctrl+Shift+V pastes as plain text), Shift or Control with Insert, Shift with
 * Delete (cut). The browser runs those as copy, cut and paste, which no clipboard permission gates.
 */
export function isClipboardChord(info: KeyInfo, held: readonly Modifier[]): boolean {
  const has = (modifier: Modifier) => held.includes(modifier);
  if (has("Control") || has("Meta")) {
    if (/^Key[CVX]$/.test(info.code)) return true;
  }
  if (info.key === "Insert") return has("Shift") || has("Control");
  return info.key === "Delete" && has("Shift");
}

/** The INVALID_KEY message of a clipboard chord (isClipboardChord). */
function clipboardMessage(info: KeyInfo, held: readonly Modifier[]): string {
  return `${[...held, info.key].join("+")} is a copy, cut or paste chord, and hub never presses ` +
    "those: a page could read the person's clipboard or plant its own text in it. To put text " +
    "in a field, type it with browser_type_text.";
}

/** Whether the browser runs on macOS (its editing keys need `commands`). */
function onMac(): boolean {
  return typeof navigator !== "undefined" && /Mac OS X|Macintosh/.test(navigator.userAgent);
}

/** One key's `Input.dispatchKeyEvent` parameters, without `type`. */
function keyFields(info: KeyInfo, bits: number): CdpParams {
  return {
    key: info.key,
    code: info.code,
    windowsVirtualKeyCode: info.keyCode,
    nativeVirtualKeyCode: info.keyCode,
    location: info.location,
    modifiers: bits,
  };
}

/**
 * The `Input.dispatchKeyEvent` parameters, in order, of pressing `key` (a KeyboardEvent.key value
 * or an alias dom_keys.ts knows) with `modifiers` held; INVALID_KEY for a key nobody knows and
 * for a copy, cut or paste chord (isClipboardChord). A lower-case letter pressed with Shift is its
 * capital (what a keyboard types).
 */
export function keyEvents(
  key: string,
  modifiers: readonly Modifier[] = [],
  mac = onMac(),
): CdpParams[] {
  const known = keyInfo(key);
  if (!known) throw hubError("INVALID_KEY", unknownKeyMessage(key));
  const held = [...new Set(modifiers)];
  if (isClipboardChord(known, held)) throw hubError("INVALID_KEY", clipboardMessage(known, held));
  const shifted = held.includes("Shift") && /^[a-z]$/.test(known.key);
  const info = shifted ? { ...known, key: known.key.toUpperCase() } : known;
  const events: CdpParams[] = [];
  held.forEach((modifier, i) => {
    const bits = modifierBits(held.slice(0, i + 1));
    events.push({ type: "rawKeyDown", ...keyFields(keyInfo(modifier)!, bits) });
  });
  const bits = modifierBits(held);
  const typing = held.every((m) => m === "Shift");
  const text = typing ? textOf(info) : undefined;
  const commands = mac ? macCommands(info, held) : [];
  events.push({
    type: text === undefined ? "rawKeyDown" : "keyDown",
    ...keyFields(info, bits),
    ...(text === undefined ? {} : { text, unmodifiedText: text }),
    ...(commands.length ? { commands } : {}),
  });
  events.push({ type: "keyUp", ...keyFields(info, bits) });
  for (let i = held.length - 1; i >= 0; i--) {
    events.push({ type: "keyUp", ...keyFields(keyInfo(held[i])!, modifierBits(held.slice(0, i))) });
  }
  return events;
}

/**
 * Presses `key` with `modifiers` held as real keyboard events, in the tab's focused element
 * (keyEvents); INVALID_KEY for an unknown key, before any event is sent.
 */
export async function pressKeys(
  session: TabSession,
  key: string,
  modifiers: Modifier[] = [],
): Promise<void> {
  await sendKeyEvents(session, keyEvents(key, modifiers));
}

/**
 * Sends `events` (keyEvents) without waiting for each answer: the debugger runs a session's
 * commands in order, so the chord stays in order and costs one round trip.
 */
export async function sendKeyEvents(session: TabSession, events: CdpParams[]): Promise<void> {
  await Promise.all(events.map((event) => session.send("Input.dispatchKeyEvent", event)));
}

/**
 * Inserts `text` at the focused element's caret (replacing its selection) as the browser inserts
 * committed text: `beforeinput` and `input` events with inputType insertText, no key events.
 */
export async function insertText(session: TabSession, text: string): Promise<void> {
  await session.send("Input.insertText", { text });
}
