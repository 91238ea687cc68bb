/// <reference lib="deno.ns" />
import { assertEquals } from "../../../tests/helpers/assert.ts";
import {
  type HiddenStyle,
  hidesOwnText,
  isHiddenFromPeople,
  type PageFacts,
} from "./visibility.ts";

const VISIBLE: HiddenStyle = {
  display: "block",
  visibility: "visible",
  opacity: "1",
  overflowX: "visible",
  overflowY: "visible",
  clip: "auto",
  clipPath: "none",
  position: "static",
};

const PAGE: PageFacts = {
  scrollX: 0,
  scrollY: 0,
  viewportWidth: 1000,
  viewportHeight: 800,
  rootClipsX: false,
  rootClipsY: false,
};

interface Fake {
  attributes?: Record<string, string>;
  rect?: { left: number; top: number; width: number; height: number };
  children?: number;
}

/** A fake element with these attributes, this box (viewport coordinates) and child count. */
function element(
  { attributes = {}, rect = { left: 10, top: 10, width: 100, height: 20 }, children = 0 }: Fake,
) {
  const box = { ...rect, right: rect.left + rect.width, bottom: rect.top + rect.height };
  return {
    getAttribute: (name: string) => attributes[name] ?? null,
    hasAttribute: (name: string) => name in attributes,
    getBoundingClientRect: () => box,
    childElementCount: children,
  } as unknown as Element;
}

const hidden = (fake: Fake, style: Partial<HiddenStyle> = {}, page: Partial<PageFacts> = {}) =>
  isHiddenFromPeople(element(fake), { ...VISIBLE, ...style }, { ...PAGE, ...page });

Deno.test("a plain box in the page is visible", () => {
  assertEquals(hidden({}), false);
});

Deno.test("display:none, opacity:0, aria-hidden and the hidden attribute hide", () => {
  assertEquals(hidden({}, { display: "none" }), true);
  assertEquals(hidden({}, { opacity: "0" }), true);
  assertEquals(hidden({}, { opacity: "0.2" }), false);
  assertEquals(hidden({ attributes: { "aria-hidden": "true" } }), true);
  assertEquals(hidden({ attributes: { "aria-hidden": "false" } }), false);
  assertEquals(hidden({ attributes: { hidden: "" } }), true);
});

Deno.test("visibility is judged per text, since a child may be visible again", () => {
  assertEquals(hidden({}, { visibility: "hidden" }), false);
  assertEquals(hidesOwnText({ visibility: "hidden" }), true);
  assertEquals(hidesOwnText({ visibility: "collapse" }), true);
  assertEquals(hidesOwnText({ visibility: "visible" }), false);
});

Deno.test("zero-size boxes hide when they clip or hold no element", () => {
  const zero = { left: 10, top: 10, width: 0, height: 0 };
  assertEquals(hidden({ rect: zero }), true);
  assertEquals(hidden({ rect: zero, children: 2 }), false, "e.g. a box of floats");
  assertEquals(
    hidden({ rect: { ...zero, width: 100 }, children: 2 }, { overflowY: "hidden" }),
    true,
  );
  assertEquals(hidden({ rect: zero, children: 2 }, { display: "contents" }), false);
});

Deno.test("text clipped to a 1-pixel box is hidden (the visually-hidden pattern)", () => {
  const onePixel = { left: 10, top: 10, width: 1, height: 1 };
  assertEquals(hidden({ rect: onePixel }, { overflowX: "hidden", overflowY: "hidden" }), true);
  assertEquals(hidden({ rect: onePixel }), false, "not clipped: its text overflows visibly");
  const clipped = { position: "absolute", clip: "rect(0px, 0px, 0px, 0px)" };
  assertEquals(hidden({}, clipped), true);
  assertEquals(hidden({}, { ...clipped, position: "static" }), false, "clip needs absolute");
  assertEquals(hidden({}, { position: "absolute", clip: "rect(0px, 100px, 20px, 0px)" }), false);
  assertEquals(hidden({}, { clipPath: "inset(50%)" }), true);
  assertEquals(hidden({}, { clipPath: "inset(10%)" }), false);
});

Deno.test("boxes nobody can scroll to are hidden; below the fold is not", () => {
  assertEquals(hidden({ rect: { left: -10000, top: 0, width: 100, height: 20 } }), true);
  assertEquals(hidden({ rect: { left: 0, top: -10000, width: 100, height: 20 } }), true);
  assertEquals(
    hidden({ rect: { left: 0, top: -300, width: 100, height: 20 } }, {}, { scrollY: 500 }),
    false,
    "scrolled past: above the viewport but inside the page",
  );
  const below = { left: 0, top: 5000, width: 100, height: 20 };
  assertEquals(hidden({ rect: below }), false);
  assertEquals(hidden({ rect: below }, {}, { rootClipsY: true }), true, "the page cannot scroll");
  assertEquals(hidden({ rect: below }, { position: "fixed" }), true, "fixed, off the viewport");
  assertEquals(hidden({ rect: { left: 2000, top: 0, width: 9, height: 9 } }), false);
  assertEquals(
    hidden({ rect: { left: 2000, top: 0, width: 9, height: 9 } }, {}, { rootClipsX: true }),
    true,
  );
});
