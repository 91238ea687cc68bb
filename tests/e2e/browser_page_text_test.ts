/**
 * browser_get_page_text in real Chromium: text hidden from people is left out (every kind on
 * `/text-hidden`, with and without a selector) while text below the fold stays; without a selector
 * the whole tab is read, frames included: `/text-frames` nests frames 3 deep with a cross-origin
 * level (`localhost` inside `127.0.0.1`, same port), each frame's text under its `--- frame` line.
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { callTool, e2eTest } from "../helpers/e2e_fixture.ts";
import { ok, tabIdOf } from "../helpers/tool_replies.ts";

const HEADER = /\n\n--- frame ([\d.]+): (.*)\n?/;

e2eTest(import.meta.url, "page text: hidden text left out, frames read", {
  config: {
    permissions: { "test-app": { permission: "auto" }, browser: { permission: "auto" } },
  },
}, async (t, { e2e }) => {
  const read = async (page: Parameters<typeof tabIdOf>[1], args: Record<string, unknown> = {}) =>
    ok(
      await callTool(e2e, "browser_get_page_text", { tabId: await tabIdOf(e2e, page), ...args }),
      "page text",
    );

  await t.step("hidden text is left out; below the fold is kept", async () => {
    const page = await e2e.open("/text-hidden");
    const { text, truncated } = await read(page);
    assertEquals(truncated, false);
    assert(!text.includes("SECRET"), text);
    for (
      const seen of [
        "Visible heading",
        "Visible paragraph",
        "Inline kept bold text",
        "Visible inside hidden",
        "Cell one",
        "Cell two",
        "Visible shadow text",
        "Shadow wrapper shown",
        "Tall block",
        "Below the fold text",
      ]
    ) assert(text.includes(seen), `${seen} in: ${text}`);
    assertEquals((await read(page, { selector: "#plain" })).text, "Visible paragraph");
    assertEquals((await read(page, { selector: "#gone p" })).text, "", "inside aria-hidden");
    await page.close();
  });

  await t.step("every frame's text under its line, nested in document order", async () => {
    const page = await e2e.open("/text-frames");
    const origin = e2e.app.origin;
    const cross = origin.replace("127.0.0.1", "localhost");
    const { text, truncated, totalLength, url, title } = await read(page);
    assertEquals([truncated, totalLength, url, title], [false, text.length, page.url(), "Frames"]);
    const top = await page.evaluate<string>("document.body.innerText");
    const [first, ...rest] = text.split(HEADER);
    assertEquals(first, top, "the top document's text first, as it reads alone");
    const frames = [];
    for (let i = 0; i < rest.length; i += 3) frames.push(rest.slice(i, i + 3));
    assertEquals(frames.map(([n, , body]) => [n, body]), [
      ["1", "Frame A text"],
      ["1.1", "Frame B text"],
      ["1.1.1", "Frame C text"],
      ["2", "Frame D text"],
    ]);
    const urls = frames.map(([, u]) => u);
    assert(urls[0].startsWith(`${origin}/text-frame?name=A&next=`), urls[0]);
    assertEquals(urls.slice(1), [
      `${cross}/text-frame?name=B&next=C`,
      `${cross}/text-frame?name=C`,
      `${origin}/text-frame?name=D`,
    ]);
    assert(!text.includes("SECRET"), "hidden text in frames is left out too");
    assert(!text.includes("Frame H"), "frames whose <iframe> is hidden are left out");

    const cut = await read(page, { maxLength: 40 });
    assertEquals([cut.truncated, cut.totalLength], [true, text.length]);
    assertEquals(cut.text.slice(0, 40), text.slice(0, 40));
    assert(cut.text.slice(40).startsWith("\n…[truncated: showed 40 of"), cut.text);
    await page.close();
  });

  await t.step("a frame inside a hidden shadow host is not read", async () => {
    const page = await e2e.open("/text-frames?shadow");
    await page.frameLocator("x-frame-box >> iframe").locator("p").first().waitFor();
    const { text } = await read(page);
    assert(text.includes("--- frame 1: ") && text.includes("Frame V text"), text);
    assert(!text.includes("Frame H4"), text);
    assert(!text.includes("SECRET"), text);
    await page.close();
  });

  await t.step("at most 50 frames are read, and the rest is counted", async () => {
    const page = await e2e.open("/text-frames?many=52");
    const { text } = await read(page);
    const lines: string[] = text.split("\n");
    assertEquals(lines.filter((l) => l.startsWith("--- frame ")).length, 50);
    assert(text.includes("--- frame 50: about:srcdoc\nSmall frame 50"), text.slice(-300));
    assert(text.endsWith("--- 2 more frames not read (at most 50 are)"), text.slice(-200));
    await page.close();
  });
});
