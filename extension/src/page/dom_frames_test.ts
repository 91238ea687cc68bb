/// <reference lib="deno.ns" />
import { assertEquals, assertMatch } from "../../../tests/helpers/assert.ts";
import { frameIndexOf, ownFrameIndex, windowIndex } from "./dom_frames.ts";

const [w0, w1, shadowWindow] = [{}, {}, {}];

/** A top document whose `frames` are [w0, w1]; `elements` maps selectors to their first match. */
function withTop(elements: Record<string, unknown>, body: (doc: Document) => void) {
  const page = globalThis as Record<string, unknown>;
  const saved = { document: page.document, location: page.location };
  const doc = {
    defaultView: { length: 2, 0: w0, 1: w1 },
    querySelector: (s: string) => elements[s] ?? null,
    querySelectorAll: (s: string) => elements[s] ? [elements[s]] : [],
  };
  page.document = doc;
  page.location = { href: "http://127.0.0.1:1234/frames" };
  try {
    body(doc as unknown as Document);
  } finally {
    page.document = saved.document;
    page.location = saved.location;
  }
}

const element = (tagName: string, contentWindow?: unknown) => ({ tagName, contentWindow });

Deno.test("frameIndexOf: an iframe's index in window.frames, found by its content window", () => {
  withTop({
    "#pay": element("IFRAME", w1),
    "frame[name=a]": element("FRAME", w0),
    "#shadow": element("IFRAME", shadowWindow),
    "#empty": element("IFRAME", null),
  }, (doc) => {
    assertEquals(frameIndexOf("#pay", doc), { ok: true, value: { index: 1, tag: "iframe" } });
    assertEquals(frameIndexOf("frame[name=a]", doc), {
      ok: true,
      value: { index: 0, tag: "frame" },
    });
    // not listed in frames (inside a shadow root), or no document yet: -1, the worker says so
    assertEquals(frameIndexOf("#shadow", doc), { ok: true, value: { index: -1, tag: "iframe" } });
    assertEquals(frameIndexOf("#empty", doc), { ok: true, value: { index: -1, tag: "iframe" } });
  });
});

Deno.test("frameIndexOf: no match, or a match that is no frame, is ELEMENT_NOT_FOUND naming it", () => {
  withTop({ "#box": element("DIV") }, (doc) => {
    const none = frameIndexOf("#nope", doc);
    assertEquals(none.ok ? "" : none.error.code, "ELEMENT_NOT_FOUND");
    assertMatch(none.ok ? "" : none.error.message, /^No <iframe> matches frame "#nope" on http/);
    const div = frameIndexOf("#box", doc);
    assertEquals(div.ok ? "" : div.error.code, "ELEMENT_NOT_FOUND");
    assertMatch(
      div.ok ? "" : div.error.message,
      /frame "#box" matches a <div> on .*not an <iframe>/,
    );
  });
});

Deno.test("frameIndexOf: a bad selector is INVALID_SELECTOR", () => {
  withTop({}, (doc) => {
    const bad = frameIndexOf("a >>> ", doc);
    assertEquals(bad.ok ? "" : bad.error.code, "INVALID_SELECTOR");
  });
});

Deno.test("windowIndex: a window's index in another's frames, -1 when absent or missing", () => {
  const view = { length: 2, 0: w0, 1: w1 } as unknown as Window;
  assertEquals(windowIndex(view, w1 as Window), 1);
  assertEquals(windowIndex(view, shadowWindow as Window), -1);
  assertEquals(windowIndex(view, null), -1);
  assertEquals(windowIndex(null, w0 as Window), -1);
});

Deno.test("ownFrameIndex: this window's index in its parent's frames; -1 at the top", () => {
  const page = globalThis as Record<string, unknown>;
  const saved = Object.getOwnPropertyDescriptor(page, "parent");
  try {
    page.parent = { length: 2, 0: w0, 1: globalThis };
    assertEquals(ownFrameIndex(), 1);
    page.parent = globalThis;
    assertEquals(ownFrameIndex(), -1);
    page.parent = { length: 1, 0: w0 };
    assertEquals(ownFrameIndex(), -1);
  } finally {
    if (saved) Object.defineProperty(page, "parent", saved);
    else delete page.parent;
  }
});
