/// <reference lib="deno.ns" />
import { assertEquals, assertThrows } from "../../../tests/helpers/assert.ts";
import {
  BadSelector,
  composedParent,
  composedText,
  pierce,
  pierceSteps,
  queryDeep,
  type Scope,
} from "./dom_deep.ts";
import { PIERCE_MAX_STEPS } from "../../../protocol/browser_methods/dom_limits.ts";

/**
 * A fake element: a tag, light children, maybe an open shadow root (a fake root with children).
 * Selectors are a tag name or "*"; "[[" is a syntax error, as the browser would say.
 */
class Fake {
  parent?: Fake;
  shadowRoot?: Fake;
  host?: Fake;
  constructor(readonly localName: string, readonly children: Fake[] = [], shadow?: Fake[]) {
    for (const child of children) child.parent = this;
    if (shadow) {
      this.shadowRoot = new Fake("#shadow-root", shadow);
      this.shadowRoot.host = this;
    }
  }
  /** This tree's elements below this node, in tree order (not into shadow roots). */
  descendants(): Fake[] {
    return this.children.flatMap((child) => [child, ...child.descendants()]);
  }
  querySelectorAll(selector: string): Fake[] {
    if (selector.includes("[[")) throw new SyntaxError(`'${selector}' is not a valid selector.`);
    return this.descendants().filter((e) => selector === "*" || e.localName === selector);
  }
  compareDocumentPosition(other: Fake): number {
    const topOf = (node: Fake): Fake => (node.parent ? topOf(node.parent) : node);
    const top = topOf(this);
    const order = [top, ...top.descendants()];
    return order.indexOf(other) < order.indexOf(this) ? 2 : 4;
  }
}

const names = (elements: Element[]) =>
  elements.map((e) => {
    const fake = e as unknown as Fake;
    return `${fake.localName}@${fake.parent?.localName ?? fake.parent}`;
  });
const asScope = (fake: Fake) => fake as unknown as Scope;

/** <body>: a, x-card(shadow: b, x-inner(shadow: b), a), b, x-plain(a) */
function page() {
  const inner = new Fake("x-inner", [], [new Fake("b")]);
  const card = new Fake("x-card", [new Fake("a")], [new Fake("b"), inner]);
  return new Fake("#document", [
    new Fake("a"),
    card,
    new Fake("b"),
    new Fake("x-plain", [new Fake("a")]),
  ]);
}

Deno.test("pierceSteps splits on >>> outside quotes and checks the parts", () => {
  assertEquals(pierceSteps("#main button"), ["#main button"]);
  assertEquals(pierceSteps(" x-card >>>button >>> .x "), ["x-card", "button", ".x"]);
  assertEquals(pierceSteps('a[title=">>>"] >>> b'), ['a[title=">>>"]', "b"]);
  assertEquals(pierceSteps("a[title='x\\'>>>'] >>> b"), ["a[title='x\\'>>>']", "b"]);
  assertThrows(() => pierceSteps("a >>> >>> b"), BadSelector, "part 2 of 3 is empty");
  assertThrows(() => pierceSteps(">>> b"), BadSelector, "part 1 of 2 is empty");
  const deepest = Array(PIERCE_MAX_STEPS + 1).fill("x").join(" >>> ");
  assertEquals(pierceSteps(deepest).length, PIERCE_MAX_STEPS + 1);
  assertThrows(() => pierceSteps(deepest + " >>> y"), BadSelector, "at most 16");
});

Deno.test("queryDeep: querySelectorAll without shadow roots, composed-tree order with them", () => {
  const flat = new Fake("#document", [new Fake("a"), new Fake("b", [new Fake("a")])]);
  assertEquals(queryDeep(asScope(flat), "a"), flat.querySelectorAll("a") as unknown as Element[]);
  const doc = page();
  assertEquals(names(queryDeep(asScope(doc), "b")), [
    "b@#shadow-root", // x-card's shadow tree, right after the host
    "b@#shadow-root", // x-inner's, nested in it
    "b@#document",
  ]);
  assertEquals(names(queryDeep(asScope(doc), "a")), ["a@#document", "a@x-card", "a@x-plain"]);
  assertThrows(() => queryDeep(asScope(doc), "a[["), SyntaxError);
});

Deno.test("pierce: each part searches the open shadow roots of the part before", () => {
  const doc = page();
  assertEquals(names(pierce(asScope(doc), ["x-card", "b"]).elements), [
    "b@#shadow-root",
    "b@#shadow-root",
  ]);
  const deep = pierce(asScope(doc), ["x-card", "x-inner", "b"]).elements;
  assertEquals(
    deep,
    [doc.children[1].shadowRoot!.children[1].shadowRoot!.children[0]] as unknown[],
  );
  assertEquals(pierce(asScope(doc), ["x-card", "a"]).elements, [], "light children are not inside");
  assertEquals(pierce(asScope(doc), ["x-plain", "a"]), {
    elements: [],
    rootless: { step: 2, hostSelector: "x-plain", hosts: 1 },
  });
  assertEquals(pierce(asScope(doc), ["x-none", "a"]), { elements: [] });
  const twice = pierce(asScope(doc), ["*", "b"]).elements; // x-card and x-inner both match "*"
  assertEquals(twice.length, new Set(twice).size, "no duplicates");
});

// composedText on a fake DOM: elements with a display, text nodes, open shadow roots and slots.
class FText {
  readonly nodeType = 3;
  parentNode?: FElement | FRoot;
  constructor(readonly data: string) {}
}
class FRoot {
  parentNode = undefined;
  constructor(readonly childNodes: (FElement | FText)[], readonly host: FElement) {
    for (const child of childNodes) child.parentNode = this;
  }
}
class FElement {
  readonly nodeType = 1;
  parentNode?: FElement | FRoot;
  shadowRoot?: FRoot;
  visibility = "visible";
  constructor(
    readonly localName: string,
    readonly display: string,
    readonly childNodes: (FElement | FText)[] = [],
  ) {
    for (const child of childNodes) child.parentNode = this;
  }
  attach(shadow: (FElement | FText)[]) {
    this.shadowRoot = new FRoot(shadow, this);
    return this;
  }
  elements(): FElement[] {
    return this.childNodes.flatMap((c) => (c instanceof FElement ? [c, ...c.elements()] : []));
  }
  querySelectorAll(selector: string) {
    return this.elements().filter((e) => selector === "*" || e.localName === selector);
  }
  querySelector(selector: string) {
    return this.querySelectorAll(selector)[0] ?? null;
  }
  getRootNode(): unknown {
    return this.parentNode instanceof FElement ? this.parentNode.getRootNode() : this.parentNode;
  }
  /** Enough innerText for the test: the light text, whitespace collapsed. */
  get innerText(): string {
    const text = (n: FElement | FText): string =>
      n instanceof FText ? n.data : n.childNodes.map(text).join("");
    return text(this).replace(/\s+/g, " ").trim();
  }
}
class FSlot extends FElement {
  assigned: (FElement | FText)[] = [];
  assignedNodes() {
    return this.assigned.length ? this.assigned : this.childNodes;
  }
}

function withFakeDom(body: () => void) {
  const fakes: Record<string, unknown> = {
    Element: FElement,
    HTMLElement: FElement,
    HTMLSlotElement: FSlot,
    ShadowRoot: FRoot,
    Node: { TEXT_NODE: 3 },
    getComputedStyle: (element: FElement) => ({
      display: element.display,
      visibility: element.visibility,
    }),
  };
  const page = globalThis as Record<string, unknown>;
  const saved = Object.fromEntries(Object.keys(fakes).map((name) => [name, page[name]]));
  Object.assign(page, fakes);
  try {
    body();
  } finally {
    Object.assign(page, saved);
  }
}

Deno.test("composedText: innerText without shadow roots; shadow trees and slots in place", () => {
  withFakeDom(() => {
    const plain = new FElement("body", "block", [
      new FText(" a "),
      new FElement("b", "inline", [new FText("b")]),
    ]);
    assertEquals(composedText(plain as unknown as Element), plain.innerText);

    const title = new FElement("span", "inline", [new FText("Title")]);
    const light = new FText(" light ");
    const named = new FSlot("slot", "contents");
    named.assigned = [title];
    const fallback = new FSlot("slot", "contents", [new FText("fallback")]);
    const unused = new FSlot("slot", "contents");
    unused.assigned = [light];
    const card = new FElement("x-card", "inline", [title, light]).attach([
      new FElement("h2", "block", [named]),
      new FElement("p", "block", [new FText("Inside")]),
      new FElement("style", "none", [new FText("p { color: red }")]),
      unused,
      new FElement("div", "block", [fallback]),
    ]);
    const body = new FElement("body", "block", [
      new FText("Top "),
      card,
      new FElement("p", "block", [new FText("After")]),
    ]);
    assertEquals(
      composedText(body as unknown as Element),
      "Top\nTitle\n\nInside\n\nlight\nfallback\n\nAfter",
    );
  });
});

Deno.test("composedText with hiding: a hidden host's shadow text and a hidden slot's content stay out", () => {
  withFakeDom(() => {
    const hidden = new Set<FElement>();
    const hiding = {
      element: (element: Element) => hidden.has(element as unknown as FElement),
      ownText: (style: CSSStyleDeclaration) => style.visibility !== "visible",
    };
    const adHost = new FElement("x-ad", "block").attach([
      new FElement("p", "block", [new FText("SECRET-HOST")]),
    ]);
    hidden.add(adHost);
    const slotted = new FText("SECRET-SLOTTED");
    const slot = new FSlot("slot", "contents");
    slot.assigned = [slotted];
    const ariaHidden = new FElement("div", "block", [new FText("SECRET-INNER"), slot]);
    hidden.add(ariaHidden);
    const quiet = new FElement("div", "block", [
      new FText("SECRET-INVISIBLE"),
      new FSlot("slot", "contents"), // walked node by node, not read as one piece
    ]);
    quiet.visibility = "hidden";
    const card = new FElement("x-card", "block", [slotted]).attach([
      new FElement("p", "block", [new FText("Shown")]),
      ariaHidden,
      new FElement("div", "block", [new FText("Seen "), new FSlot("slot", "contents")]),
    ]);
    const invisible = new FElement("x-quiet", "block").attach([quiet]);
    const body = new FElement("body", "block", [new FText("Top"), adHost, card, invisible]);
    const text = composedText(body as unknown as Element, undefined, hiding);
    assertEquals(text, "Top\n\nShown\n\nSeen");
    // Without hiding, only display:none is left out, as before.
    const all = composedText(body as unknown as Element);
    for (const secret of ["SECRET-HOST", "SECRET-INNER", "SECRET-SLOTTED", "SECRET-INVISIBLE"]) {
      assertEquals(all.includes(secret), true, secret);
    }
  });
});

Deno.test("composedParent: a slotted node's slot, a shadow root's host, else the parent element", () => {
  withFakeDom(() => {
    const host = new FElement("x-card", "block");
    const root = new FRoot([], host);
    const slot = { nodeType: 1 };
    const parent = { nodeType: 1 };
    assertEquals(
      composedParent({ assignedSlot: slot, parentElement: parent } as unknown as Node),
      slot,
    );
    assertEquals(composedParent({ parentElement: parent } as unknown as Node), parent);
    assertEquals(
      composedParent({ parentElement: null, parentNode: root } as unknown as Node),
      host as unknown as Element,
    );
    assertEquals(
      composedParent({ parentElement: null, parentNode: null } as unknown as Node),
      null,
    );
  });
});
