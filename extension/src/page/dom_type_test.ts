/// <reference lib="deno.ns" />
/**
 * The kit's type operation on a small fake DOM (Deno has none): a field that already has focus is
 * not focused or clicked again, and `clear: false` adds the text at the end whatever the caret.
 * tests/e2e/browser_type_focus_test.ts checks the same in real Chromium.
 */
import { assertEquals } from "../../../tests/helpers/assert.ts";
import { parseBrowserInput } from "../../../protocol/browser_methods/mod.ts";
import { typeText } from "./dom_type.ts";
import { createRefRegistry } from "./dom_refs.ts";

/** The kit state of a fresh document. */
const state = () => ({ refs: createRefRegistry("t"), scheme: { prefix: "", base: 1 } });

/** `dom.type`'s arguments as the kit gets them (parsed, defaulted). */
function typing(selector: string, text: string, clear = true) {
  const parsed = parseBrowserInput("dom.type", { selector, text, clear });
  if (!parsed.ok) throw new Error(`dom.type refused: ${parsed.problems}`);
  const { ref: _ref, ...args } = parsed.input;
  return args;
}

/** An element as the type operation uses it; counts focus() and click() calls. */
class FakeElement extends EventTarget {
  focusCalls = 0;
  clicks = 0;
  constructor(readonly tagName: string, readonly root: FakeDocument) {
    super();
  }
  getRootNode() {
    return this.root;
  }
  scrollIntoView() {}
  focus() {
    this.focusCalls++;
    this.root.activeElement = this;
  }
  click() {
    this.clicks++;
  }
}

/** An <input type="text">: setting `value` puts the caret at the end, as Chromium does. */
class FakeInput extends FakeElement {
  type = "text";
  disabled = false;
  readOnly = false;
  form = null;
  selectionStart: number | null = 0;
  selectionEnd: number | null = 0;
  #value = "";
  get value() {
    return this.#value;
  }
  set value(value: string) {
    this.#value = value;
    this.selectionStart = this.selectionEnd = value.length;
  }
  setSelectionRange(start: number, end: number) {
    [this.selectionStart, this.selectionEnd] = [start, end];
  }
}

class FakeDocument {
  activeElement: FakeElement | null = null;
  elements = new Map<string, FakeElement>();
  querySelector(selector: string) {
    return this.elements.get(selector) ?? null;
  }
}

/** Runs `body` with the DOM globals the operation reads set to the fakes, then removes them. */
function withFakeDom(body: (document: FakeDocument) => void) {
  const document = new FakeDocument();
  const globals: Record<string, unknown> = {
    document,
    HTMLInputElement: FakeInput,
    HTMLTextAreaElement: class {},
    HTMLElement: FakeElement,
    InputEvent: class extends Event {},
  };
  const had = Object.keys(globals).filter((name) => Object.hasOwn(globalThis, name));
  if (had.length) throw new Error(`the test would replace ${had}`);
  Object.assign(globalThis, globals);
  try {
    body(document);
  } finally {
    for (const name of Object.keys(globals)) Reflect.deleteProperty(globalThis, name);
  }
}

Deno.test("typing into the focused field neither focuses nor clicks it again", () => {
  withFakeDom((document) => {
    const field = new FakeInput("INPUT", document);
    document.elements.set("#q", field);
    field.focus();
    const events: string[] = [];
    for (const type of ["focus", "click", "input", "change"]) {
      field.addEventListener(type, () => events.push(type));
    }
    assertEquals(typeText(typing("#q", "abc"), state()), {
      tag: "input",
      value: "abc",
    });
    assertEquals([field.focusCalls, field.clicks], [1, 0], "only the test's own focus()");
    assertEquals(events, ["input", "change"]);
  });
});

Deno.test("a field without focus is focused once, not clicked", () => {
  withFakeDom((document) => {
    const field = new FakeInput("INPUT", document);
    document.elements.set("#q", field);
    typeText(typing("#q", "abc"), state());
    assertEquals([field.focusCalls, field.clicks], [1, 0]);
    assertEquals(document.activeElement, field);
  });
});

Deno.test("clear: false adds the text at the end, wherever the caret was", () => {
  withFakeDom((document) => {
    const field = new FakeInput("INPUT", document);
    document.elements.set("#q", field);
    field.value = "hello";
    field.focus();
    field.setSelectionRange(1, 3); // caret (and a selection) inside the text
    const typed = typeText(typing("#q", " world", false), state());
    assertEquals(typed.value, "hello world");
    assertEquals([field.selectionStart, field.selectionEnd], [11, 11], "caret after the text");
    // A field without a selection API (type=email) still gets the text at its end.
    const email = new FakeInput("INPUT", document);
    email.type = "email";
    document.elements.set("#e", email);
    email.value = "ada@";
    email.selectionStart = email.selectionEnd = null;
    typeText(typing("#e", "example.com", false), state());
    assertEquals(email.value, "ada@example.com");
  });
});
