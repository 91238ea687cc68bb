import { HubError, restStatus } from "../../protocol/errors.ts";
import { assertEquals, assertMatch } from "../../tests/helpers/assert.ts";
import { parseWithZod } from "./browser_tool.ts";
import { screenshotFileName, screenshotTab } from "./screenshot_tab.ts";

const PNG = btoa("\x89PNG fake image bytes");
const TIME = Date.UTC(2025, 0, 2, 3, 4, 5, 678);

function context(input: Record<string, unknown> = {}, saved: [string, Uint8Array][] = []) {
  return {
    input,
    now: () => TIME,
    saveFile: (name: string, bytes: Uint8Array) => {
      saved.push([name, bytes]);
      return Promise.resolve(`/cfg/screenshots/${name}`);
    },
  };
}

const shot = (fields: Record<string, unknown> = {}) => ({
  tabId: 7,
  mimeType: "image/png",
  format: "png",
  bytes: 17,
  reduced: false,
  maxBytes: 2_000_000,
  data: PNG,
  ...fields,
});

Deno.test("maxBytes defaults to 2,000,000 and is bounded; save and fullPage default to false", () => {
  assertEquals(parseWithZod(screenshotTab.input, {}), {
    ok: true,
    input: { maxBytes: 2_000_000, save: false, fullPage: false },
  });
  assertEquals(parseWithZod(screenshotTab.input, { maxBytes: 999 }).ok, false);
  assertEquals(parseWithZod(screenshotTab.input, { maxBytes: 7_000_001 }).ok, false);
});

Deno.test("an element or the full page, never both; frame only with an element", () => {
  const parse = (input: Record<string, unknown>) => parseWithZod(screenshotTab.input, input).ok;
  assertEquals(parse({ selector: "#card" }), true);
  assertEquals(parse({ ref: "f1e3" }), true);
  assertEquals(parse({ selector: "#card", frame: "#pay" }), true);
  assertEquals(parse({ fullPage: true }), true);
  assertEquals(parse({ ref: "e1", selector: "#card" }), false);
  assertEquals(parse({ fullPage: true, selector: "#card" }), false);
  assertEquals(parse({ frame: "#pay" }), false);
  assertEquals(parse({ ref: "not a ref" }), false);
});

Deno.test("a PNG is one image block", async () => {
  const content = await screenshotTab.toContent!(shot(), context());
  assertEquals(content, [{ type: "image", data: PNG, mimeType: "image/png" }]);
});

Deno.test("a reduced JPEG says so in a text block", async () => {
  const reduced = shot({
    mimeType: "image/jpeg",
    format: "jpeg",
    reduced: true,
    pngBytes: 3_000_000,
    quality: 60,
    bytes: 400_000,
  });
  const content = await screenshotTab.toContent!(reduced, context());
  assertEquals(content[0], { type: "image", data: PNG, mimeType: "image/jpeg" });
  assertEquals(content[1], {
    type: "text",
    text: "Reduced: the PNG was 3000000 bytes, over maxBytes 2000000, so this is a JPEG at " +
      "quality 60 (400000 bytes).",
  });
});

Deno.test("a cut element or page says which part the image shows", async () => {
  const clip = { x: 0, y: 0, width: 1280, height: 16_000 };
  const page = await screenshotTab.toContent!(shot({ area: "page", clip, cut: true }), context());
  assertEquals(page[1], {
    type: "text",
    text: "Cut: the page is larger than 16000 CSS px a side, so this shows its top left " +
      "1280x16000 px.",
  });
  const whole = await screenshotTab.toContent!(shot({ area: "element", clip }), context());
  assertEquals(whole.length, 1);
});

Deno.test("save: true saves the decoded image under a timestamped name and says where", async () => {
  const saved: [string, Uint8Array][] = [];
  const content = await screenshotTab.toContent!(shot(), context({ save: true }, saved));
  assertEquals(saved.length, 1);
  assertEquals(saved[0][0], "screenshot-2025-01-02T03-04-05.678Z-tab7.png");
  assertEquals(new TextDecoder().decode(saved[0][1].slice(1)), "PNG fake image bytes");
  assertEquals(content[1], {
    type: "text",
    text: "Saved the screenshot to /cfg/screenshots/screenshot-2025-01-02T03-04-05.678Z-tab7.png",
  });
  assertEquals(screenshotFileName(TIME, 3, "jpeg"), "screenshot-2025-01-02T03-04-05.678Z-tab3.jpg");
});

Deno.test("a failed save is SAVE_FAILED with what to do", async () => {
  const failing = {
    ...context({ save: true }),
    saveFile: () => Promise.reject(new Error("disk full")),
  };
  const error = await screenshotTab.toContent!(shot(), failing).then(
    () => undefined,
    (e: unknown) => e,
  );
  assertEquals(error instanceof HubError && error.payload.code, "SAVE_FAILED");
  assertMatch((error as HubError).message, /disk full.*call without save/);
  assertEquals(restStatus(error as HubError), 422);
});

Deno.test("a value without image data comes back as JSON text", async () => {
  assertEquals(await screenshotTab.toContent!({ odd: true }, context()), [
    { type: "text", text: '{"odd":true}' },
  ]);
});
