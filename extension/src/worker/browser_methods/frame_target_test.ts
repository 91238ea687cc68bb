/// <reference lib="deno.ns" />
import { assertEquals } from "../../../../tests/helpers/assert.ts";
import { HubError } from "../../../../protocol/errors.ts";
import type { KitOutcome } from "../../page/dom_kit_types.ts";
import { type FrameLookups, resolveFrame, resolveFramePlace } from "./frame_target.ts";

type Frame = chrome.webNavigation.GetAllFrameResultDetails;

const frame = (frameId: number, parentFrameId: number, documentId?: string) =>
  ({ frameId, parentFrameId, url: `http://x/${frameId}`, documentId }) as Frame;

/**
 * A tab whose top document holds `elements` (selector → its answer) and whose frames answer
 * `indexes` (frameId → index in its parent; absent: cannot be scripted). Records the calls.
 */
function fakeTab(
  elements: Record<string, KitOutcome>,
  frames: Frame[],
  indexes: Record<number, number>,
) {
  const asked: string[] = [];
  const lookups: FrameLookups = {
    findElement: (_tabId, selector) => {
      asked.push(`find ${selector}`);
      return Promise.resolve(
        elements[selector] ??
          { ok: false, error: { code: "ELEMENT_NOT_FOUND", message: `No <iframe> ${selector}` } },
      );
    },
    frames: () => {
      asked.push("frames");
      return Promise.resolve(frames);
    },
    indexes: (_tabId, ids) => {
      asked.push(`indexes ${ids.join(",")}`);
      return Promise.resolve(
        new Map(ids.filter((id) => id in indexes).map((id) => [id, indexes[id]])),
      );
    },
  };
  return { lookups, asked };
}

/** The HubError `promise` rejects with. */
async function failure(promise: Promise<unknown>): Promise<HubError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof HubError) return error;
    throw error;
  }
  throw new Error("resolved, expected a HubError");
}

const at = (index: number, tag = "iframe"): KitOutcome => ({ ok: true, value: { index, tag } });

const FRAMES = [frame(0, -1, "TOP"), frame(4, 0, "DOC-A"), frame(9, 0, "DOC-B"), frame(12, 4)];

Deno.test("without frame the target is the tab, and nothing is asked", async () => {
  const { lookups, asked } = fakeTab({}, FRAMES, {});
  assertEquals(await resolveFrame(7, undefined, lookups), { tabId: 7 });
  assertEquals(asked, []);
});

Deno.test("a frame selector resolves to the child of the top document with the same index", async () => {
  const { lookups, asked } = fakeTab({ "#pay": at(1), "#form": at(0) }, FRAMES, {
    4: 0,
    9: 1,
  });
  assertEquals(await resolveFrame(7, "#pay", lookups), { tabId: 7, documentIds: ["DOC-B"] });
  assertEquals(await resolveFrame(7, "#form", lookups), { tabId: 7, documentIds: ["DOC-A"] });
  // only the top document's children are asked for their index, never a grandchild (12)
  assertEquals(asked.slice(0, 3), ["find #pay", "frames", "indexes 4,9"]);
});

Deno.test("a frame without a documentId is targeted by its frameId", async () => {
  const { lookups } = fakeTab({ "iframe": at(0) }, [frame(0, -1), frame(3, 0)], { 3: 0 });
  assertEquals(await resolveFrame(7, "iframe", lookups), { tabId: 7, frameIds: [3] });
});

Deno.test("a selector that matches no iframe fails with the kit's ELEMENT_NOT_FOUND", async () => {
  const { lookups } = fakeTab({}, FRAMES, {});
  const error = await failure(resolveFrame(7, "#nope", lookups));
  assertEquals(error.code, "ELEMENT_NOT_FOUND");
  assertEquals(error.message, "No <iframe> #nope");
});

Deno.test("an iframe not listed in window.frames fails with ELEMENT_NOT_FOUND naming the frame", async () => {
  const { lookups } = fakeTab({ "x-card >>> iframe": at(-1) }, FRAMES, { 4: 0, 9: 1 });
  const error = await failure(resolveFrame(7, "x-card >>> iframe", lookups));
  assertEquals(error.code, "ELEMENT_NOT_FOUND");
  assertEquals(error.message.includes('frame "x-card >>> iframe"'), true);
});

Deno.test("a frame whose document cannot be scripted fails with PAGE_NOT_SCRIPTABLE", async () => {
  const { lookups } = fakeTab({ "#store": at(1) }, FRAMES, { 4: 0 });
  const error = await failure(resolveFrame(7, "#store", lookups));
  assertEquals(error.code, "PAGE_NOT_SCRIPTABLE");
  assertEquals(error.message.includes('frame "#store"'), true);
});

Deno.test("a frame ref goes to byRef when there is one; without it, it is a selector", async () => {
  const { lookups, asked } = fakeTab({ "f1": at(0) }, FRAMES, { 4: 0 });
  assertEquals(await resolveFrame(7, "f1", lookups), { tabId: 7, documentIds: ["DOC-A"] });
  const byRef = (tabId: number, ref: string) => {
    asked.push(`ref ${ref}`);
    const target = { tabId, documentIds: ["DOC-REF"] };
    return Promise.resolve({ target, frameId: 4, documentId: "DOC-REF" });
  };
  assertEquals(await resolveFrame(7, "f1", { ...lookups, byRef }), {
    tabId: 7,
    documentIds: ["DOC-REF"],
  });
  assertEquals(asked.at(-1), "ref f1");
  // with the frame, document and URL it found, for the frame's ref scheme and its site
  assertEquals(await resolveFramePlace(7, "f1", lookups), {
    target: { tabId: 7, documentIds: ["DOC-A"] },
    frameId: 4,
    documentId: "DOC-A",
    url: "http://x/4",
  });
  assertEquals(await resolveFramePlace(7, undefined, lookups), { target: { tabId: 7 } });
});
