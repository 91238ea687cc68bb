/// <reference lib="deno.ns" />
import { assertEquals, assertMatch } from "../../../../tests/helpers/assert.ts";
import { failureOf } from "../_test_fixtures.ts";
import { fitShot, JPEG_QUALITIES } from "./screenshot_image.ts";

/** Base64 of `n` bytes. */
const ofSize = (n: number) => btoa("x".repeat(n));

Deno.test("a PNG within maxBytes is returned as it is, without re-encoding", async () => {
  const png = ofSize(1000);
  const shot = await fitShot(3, png, 1000, () => {
    throw new Error("no JPEG needed");
  });
  assertEquals(shot, {
    tabId: 3,
    mimeType: "image/png",
    format: "png",
    bytes: 1000,
    reduced: false,
    maxBytes: 1000,
    data: png,
  });
});

Deno.test("a PNG over maxBytes becomes the first JPEG quality that fits", async () => {
  const sizes: Record<number, number> = { 80: 900, 60: 500, 40: 200 };
  const asked: number[] = [];
  const shot = await fitShot(3, ofSize(1000), 600, (quality) => {
    asked.push(quality);
    return Promise.resolve(ofSize(sizes[quality]));
  });
  assertEquals(asked, [80, 60]);
  assertEquals({ ...shot, data: "" }, {
    tabId: 3,
    mimeType: "image/jpeg",
    format: "jpeg",
    bytes: 500,
    reduced: true,
    pngBytes: 1000,
    quality: 60,
    maxBytes: 600,
    data: "",
  });
});

Deno.test("when no quality fits, SCREENSHOT_TOO_LARGE says the sizes and what to do", async () => {
  const asked: number[] = [];
  const failed = await failureOf(fitShot(3, ofSize(5000), 1000, (quality) => {
    asked.push(quality);
    return Promise.resolve(ofSize(quality * 30));
  }));
  assertEquals(asked, JPEG_QUALITIES);
  assertEquals([failed.payload.code, failed.payload.category], [
    "SCREENSHOT_TOO_LARGE",
    "validation",
  ]);
  assertMatch(
    failed.payload.message,
    /tab 3 is 5000 bytes as PNG and still 1200 bytes as JPEG at quality 40, over maxBytes 1000\. Pass a larger maxBytes/,
  );
});
