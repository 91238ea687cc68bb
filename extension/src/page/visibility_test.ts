/// <reference lib="deno.ns" />
import { assertEquals } from "../../../tests/helpers/assert.ts";
import {
  alphaOf,
  type HiddenStyle,
  hidesOwnText,
  inkless,
  isHiddenFromPeople,
  type OwnTextStyle,
  type PageFacts,
} from "./visibility.ts";

const VISIBLE: HiddenStyle = {
  display: "block",
  visibility: "visible",
  opacity: "1",
  filter: "none",
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
  /** offsetWidth / offsetHeight: the layout size, which transforms do not change. */
  layout?: { width: number; height: number };
}

/** A fake element with these attributes, this box (viewport coordinates) and child count. */
function element(
  { attributes = {}, rect = { left: 10, top: 10, width: 100, height: 20 }, children = 0, layout }:
    Fake,
) {
  const box = { ...rect, right: rect.left + rect.width, bottom: rect.top + rect.height };
  return {
    getAttribute: (name: string) => attributes[name] ?? null,
    hasAttribute: (name: string) => name in attributes,
    getBoundingClientRect: () => box,
    childElementCount: children,
    offsetWidth: (layout ?? rect).width,
    offsetHeight: (layout ?? rect).height,
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

/** Computed text styles as Chromium writes them, of a plain block 500 px wide. */
const INKED: OwnTextStyle = {
  visibility: "visible",
  color: "rgb(0, 0, 0)",
  webkitTextFillColor: "rgb(0, 0, 0)",
  backgroundClip: "border-box",
  webkitBackgroundClip: "border-box",
  webkitTextStrokeWidth: "0px",
  webkitTextStrokeColor: "rgb(0, 0, 0)",
  textShadow: "none",
  fontSize: "16px",
  textIndent: "0px",
  width: "500px",
};
const ownHidden = (style: Partial<OwnTextStyle>) => hidesOwnText({ ...INKED, ...style });
const CLEAR = "rgba(0, 0, 0, 0)";

Deno.test("visibility is judged per text, since a child may be visible again", () => {
  assertEquals(hidden({}, { visibility: "hidden" }), false);
  assertEquals(ownHidden({}), false);
  assertEquals(ownHidden({ visibility: "hidden" }), true);
  assertEquals(ownHidden({ visibility: "collapse" }), true);
});

Deno.test("transparent text hides its own text, but not a gradient, stroke or shadow", () => {
  // As Chromium computes `color: transparent`: the fill and stroke colours follow it.
  const clear = { color: CLEAR, webkitTextFillColor: CLEAR, webkitTextStrokeColor: CLEAR };
  assertEquals(ownHidden(clear), true);
  assertEquals(ownHidden({ ...clear, color: "oklch(0.5 0.1 20 / 0)" }), true);
  assertEquals(ownHidden({ color: CLEAR }), false, "a fill colour set apart draws it");
  assertEquals(ownHidden({ webkitTextFillColor: CLEAR }), true, "the fill is what is drawn");
  assertEquals(ownHidden({ ...clear, backgroundClip: "text" }), false, "gradient heading");
  assertEquals(ownHidden({ ...clear, webkitBackgroundClip: "text" }), false);
  assertEquals(
    ownHidden({ ...clear, webkitTextStrokeWidth: "1px", webkitTextStrokeColor: "rgb(255, 0, 0)" }),
    false,
    "outlined text",
  );
  assertEquals(ownHidden({ ...clear, webkitTextStrokeWidth: "1px" }), true, "a clear stroke");
  assertEquals(ownHidden({ ...clear, textShadow: "rgb(0, 0, 0) 0px 0px 4px" }), false);
  assertEquals(ownHidden({ ...clear, textShadow: `${CLEAR} 1px 1px 0px` }), true);
});

Deno.test("ink of alpha under 0.05 is no ink; a shadow thrown far from its text is no ink", () => {
  const faint = "rgba(0, 0, 0, 0.01)";
  assertEquals(ownHidden({ color: faint, webkitTextFillColor: faint }), true);
  assertEquals(ownHidden({ webkitTextFillColor: "rgba(0, 0, 0, 0.05)" }), false);
  assertEquals(ownHidden({ webkitTextFillColor: "oklch(0.5 0.1 20 / 4%)" }), true);
  const clear = { color: CLEAR, webkitTextFillColor: CLEAR, webkitTextStrokeColor: CLEAR };
  const shadow = (textShadow: string) => ownHidden({ ...clear, textShadow });
  assertEquals(shadow("rgb(255, 0, 0) -9999px 0px 0px"), true, "thrown off the page");
  assertEquals(shadow("rgb(255, 0, 0) 0px 21px 0px"), true);
  assertEquals(shadow("rgb(255, 0, 0) -20px 20px 0px"), false, "within 20 px");
  assertEquals(shadow("rgba(0, 0, 0, 0.01) 1px 1px 0px"), true, "a faint shadow");
  assertEquals(shadow("rgb(0, 0, 0) -9999px 0px 0px, rgb(0, 0, 0) 2px 2px 3px"), false);
  assertEquals(shadow("rgb(0, 0, 0) 2px 2px 3px, rgb(0, 0, 0) 0px -9999px 0px"), false);
  assertEquals(
    ownHidden({
      ...clear,
      webkitTextStrokeWidth: "1px",
      webkitTextStrokeColor: "rgba(0,0,0,0.01)",
    }),
    true,
    "a faint stroke",
  );
});

Deno.test("a font under 3 px, or a text-indent past the box, hides its own text", () => {
  assertEquals(ownHidden({ fontSize: "0px" }), true);
  assertEquals(ownHidden({ fontSize: "1px" }), true);
  assertEquals(ownHidden({ fontSize: "3px" }), false);
  assertEquals(ownHidden({ textIndent: "-9999px" }), true);
  assertEquals(ownHidden({ textIndent: "-500px" }), true);
  assertEquals(ownHidden({ textIndent: "-100%" }), true);
  assertEquals(ownHidden({ textIndent: "-16px" }), false, "a hanging indent");
  assertEquals(ownHidden({ textIndent: "-9999px", width: "auto" }), false, "inline: no indent");
  assertEquals(ownHidden({ textIndent: "0px", width: "0px" }), false);
  assertEquals(inkless({ ...INKED, fontSize: "1px" }), true, "names leave tiny text out too");
  assertEquals(inkless({ ...INKED, textIndent: "-9999px" } as OwnTextStyle), false);
});

Deno.test("alphaOf reads Chromium's computed colours", () => {
  assertEquals(alphaOf("rgb(1, 2, 3)"), 1);
  assertEquals(alphaOf("rgba(1, 2, 3, 0)"), 0);
  assertEquals(alphaOf("rgba(1, 2, 3, 0.5)"), 0.5);
  assertEquals(alphaOf("transparent"), 0);
  assertEquals(alphaOf("color(srgb 1 0 0 / 0)"), 0);
  assertEquals(alphaOf("lab(50 20 30 / 40%)"), 0.4);
  assertEquals(alphaOf(""), 1);
});

Deno.test("an opacity under 0.05, its own or by filter, hides the whole box", () => {
  assertEquals(hidden({}, { opacity: "0.001" }), true);
  assertEquals(hidden({}, { opacity: "0.05" }), false);
  assertEquals(hidden({}, { filter: "opacity(0)" }), true);
  assertEquals(hidden({}, { filter: "opacity(0) blur(2px)" }), true);
  assertEquals(hidden({}, { filter: "blur(2px) opacity(2%)" }), true);
  assertEquals(hidden({}, { filter: "opacity(0.5)" }), false);
  assertEquals(hidden({}, { filter: "blur(2px)" }), false);
});

Deno.test("clip-path shapes that leave nothing hide the box", () => {
  for (const shape of ["inset(0px 0px 100%)", "inset(100% 0px 0px 0px)", "inset(0px 50%)"]) {
    assertEquals(hidden({}, { clipPath: shape }), true, shape);
  }
  assertEquals(hidden({}, { clipPath: "inset(10px 0px 10px)" }), true, "20 px of a 20 px box");
  assertEquals(hidden({}, { clipPath: "inset(0px 0px 50%)" }), false);
  assertEquals(hidden({}, { clipPath: "inset(0px round 4px)" }), false);
  assertEquals(hidden({}, { clipPath: "inset(calc(50% + 1px))" }), false, "not judged");
  assertEquals(hidden({}, { clipPath: "circle(0px)" }), true);
  assertEquals(hidden({}, { clipPath: "circle(0px at 50% 50%)" }), true);
  assertEquals(hidden({}, { clipPath: "circle(40%)" }), false);
  assertEquals(hidden({}, { clipPath: "ellipse(0px 10px)" }), true);
  assertEquals(hidden({}, { clipPath: "ellipse(10px 0%)" }), true);
  assertEquals(hidden({}, { clipPath: "ellipse(10px 20px at 0% 0%)" }), false);
  assertEquals(hidden({}, { clipPath: "polygon(0px 0px, 10px 0px, 0px 10px)" }), false);
});

Deno.test("a clip-path polygon of no area (one point, or points on one line) hides the box", () => {
  for (
    const shape of [
      "polygon(0px 0px, 0px 0px, 0px 0px)",
      "polygon(50% 50%, 50% 50%, 50% 50%)",
      "polygon(0px 0px, 50% 50%, 100% 100%)",
      "polygon(evenodd, 0px 0px, 100% 0px, 50% 0px)",
      "polygon(0px 0px)",
    ]
  ) assertEquals(hidden({}, { clipPath: shape }), true, shape);
  assertEquals(hidden({}, { clipPath: "polygon(0% 0%, 100% 0%, 100% 100%, 0% 100%)" }), false);
  assertEquals(hidden({}, { clipPath: "polygon(nonzero, 0px 0px, 2px 0px, 0px 2px)" }), false);
  assertEquals(hidden({}, { clipPath: "polygon(calc(1px) 0px, 0px 0px, 0px 0px)" }), false);
});

Deno.test("a transform that draws the box under 2 px across or high hides it", () => {
  const layout = { width: 100, height: 20 };
  const drawn = (width: number, height: number) => ({ left: 10, top: 10, width, height });
  assertEquals(hidden({ rect: drawn(1, 0.2), layout }), true, "scale(0.01)");
  assertEquals(hidden({ rect: drawn(100, 0.5), layout }), true, "scaleY(0.025)");
  assertEquals(hidden({ rect: drawn(0, 20), layout }), true, "scaleX(0) with no clipping");
  assertEquals(hidden({ rect: drawn(50, 10), layout }), false, "scale(0.5)");
  assertEquals(
    hidden({ rect: drawn(1.6, 20), layout: { width: 2, height: 20 } }),
    false,
    "rounding",
  );
  assertEquals(
    hidden({ rect: drawn(1, 20), layout: { width: 1, height: 20 } }),
    false,
    "a thin rule",
  );
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
