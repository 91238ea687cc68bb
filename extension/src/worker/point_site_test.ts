/// <reference lib="deno.ns" />
import { assertEquals } from "../../../tests/helpers/assert.ts";
import type { Permission } from "../../../protocol/permission.ts";
import { failureOf, withChrome } from "./_test_fixtures.ts";
import { createSiteAccess } from "./site_access.ts";
import { frameRefusal } from "./site_gate.ts";
import {
  checkFocusSites,
  checkPointSites,
  focusedFrame,
  frameAtPoint,
  type Point,
  pointsOf,
} from "./point_site.ts";

interface FakeFrame {
  frameId: number;
  parentFrameId: number;
  url: string;
  /** Its index in its parent's `window.frames`. */
  index?: number;
  /** What is under a point in it: a child's index and the point inside, or nothing. */
  at?: (point: Point) => { index: number; x: number; y: number } | null;
  /** The index of its focused child frame (null: the focus is on no frame). */
  focus?: number | null;
  /** Its document's real origin, read when its URL has no site. */
  origin?: string;
}

/** A fake chrome over `frames` (tab 7); `asked` records the points each frame was asked about. */
function fakeFrames(frames: FakeFrame[]) {
  const asked: [number, Point][] = [];
  const chrome = {
    webNavigation: { getAllFrames: () => Promise.resolve(frames) },
    scripting: {
      executeScript(injection: {
        target: { frameIds: number[] };
        func: unknown;
        args?: number[];
        world?: string;
      }) {
        const frameId = injection.target.frameIds[0];
        const frame = frames.find((f) => f.frameId === frameId)!;
        if (injection.world === "ISOLATED") {
          return Promise.resolve([{ frameId, result: frame.origin ?? "null" }]);
        }
        if (injection.func === frameAtPoint) {
          const [x, y] = injection.args!;
          asked.push([frameId, { x, y }]);
          return Promise.resolve([{ frameId, result: frame.at?.({ x, y }) ?? null }]);
        }
        if (injection.func === focusedFrame) {
          asked.push([frameId, { x: -1, y: -1 }]);
          return Promise.resolve([{ frameId, result: frame.focus ?? null }]);
        }
        return Promise.resolve([{ frameId, result: frame.index ?? -1 }]);
      },
    },
  };
  return { chrome, asked };
}

function refusal(rules: Record<string, Permission>) {
  const sites = createSiteAccess();
  sites.update({ sitePermissions: rules, defaultSitePermission: "auto" });
  return (url: string) => frameRefusal(url, { sites, siteGrants: [] });
}

const RULES: Record<string, Permission> = { "ads.example": "ask" };
const OFF: Record<string, Permission> = { "ads.example": "off" };
const TOP = "https://shop.example/";
/** The pay frame (index 0) covers x 100-400, y 100-300 of the top document. */
const inPayFrame = ({ x, y }: Point) =>
  x >= 100 && x < 400 && y >= 100 && y < 300 ? { index: 0, x: x - 100, y: y - 100 } : null;

Deno.test("the points of a coordinate input", () => {
  assertEquals(pointsOf({ x: 1, y: 2 }), [{ x: 1, y: 2 }]);
  assertEquals(pointsOf({ fromX: 1, fromY: 2, toRef: "e3" }), [{ x: 1, y: 2 }]);
  assertEquals(pointsOf({ fromRef: "e1", toX: 3, toY: 4 }), [{ x: 3, y: 4 }]);
  assertEquals(pointsOf({ ref: "e1" }), []);
});

Deno.test("a tab with no refused frame is not scripted", async () => {
  const { chrome, asked } = fakeFrames([
    { frameId: 0, parentFrameId: -1, url: TOP, at: inPayFrame },
    { frameId: 5, parentFrameId: 0, url: "https://pay.example/", index: 0 },
  ]);
  await withChrome(chrome, () => checkPointSites(7, [{ x: 150, y: 150 }], refusal(RULES)));
  assertEquals(asked, []);
});

Deno.test("a point over an ask frame asks; a point beside it does not", async () => {
  const { chrome } = fakeFrames([
    { frameId: 0, parentFrameId: -1, url: TOP, at: inPayFrame },
    { frameId: 5, parentFrameId: 0, url: "https://ads.example/ad", index: 0 },
  ]);
  await withChrome(chrome, async () => {
    const failed = await failureOf(checkPointSites(7, [{ x: 150, y: 150 }], refusal(RULES)));
    assertEquals(failed.payload.code, "SITE_ASK");
    assertEquals((failed.payload.details as { site: string }).site, "ads.example");
    await checkPointSites(7, [{ x: 10, y: 10 }], refusal(RULES));
    // a drag that ends over it
    const drag = pointsOf({ fromX: 10, fromY: 10, toX: 120, toY: 120 });
    assertEquals(
      (await failureOf(checkPointSites(7, drag, refusal(RULES)))).payload.code,
      "SITE_ASK",
    );
  });
});

Deno.test("a tab embedding an off frame refuses every point: the page can move it", async () => {
  const { chrome, asked } = fakeFrames([
    { frameId: 0, parentFrameId: -1, url: TOP, at: inPayFrame },
    { frameId: 5, parentFrameId: 0, url: "https://pay.example/", index: 0 },
    { frameId: 9, parentFrameId: 5, url: "https://ads.example/ad", index: 0 },
  ]);
  await withChrome(chrome, async () => {
    const failed = await failureOf(checkPointSites(7, [{ x: 10, y: 10 }], refusal(OFF)));
    assertEquals(failed.payload.code, "SITE_NOT_ALLOWED");
    assertEquals((failed.payload.details as { site: string }).site, "ads.example");
    assertEquals(failed.message.includes("can move its frames"), true);
    assertEquals(failed.message.includes('(rule "ads.example")'), true);
    assertEquals(failed.message.includes("browser_click_element with the ref"), true);
    assertEquals(failed.message.includes("hub config set site-permission."), true);
    assertEquals(asked, []);
    // no point, nothing to check (a drag by refs)
    await checkPointSites(7, pointsOf({ fromRef: "e1", toRef: "e2" }), refusal(OFF));
  });
});

Deno.test("the point is followed into an allowed frame, down to an ask frame inside it", async () => {
  const { chrome, asked } = fakeFrames([
    { frameId: 0, parentFrameId: -1, url: TOP, at: inPayFrame },
    {
      frameId: 5,
      parentFrameId: 0,
      url: "https://pay.example/",
      index: 0,
      at: ({ x, y }) => (x < 50 ? { index: 0, x, y } : null),
    },
    { frameId: 9, parentFrameId: 5, url: "https://ads.example/", index: 0 },
  ]);
  await withChrome(chrome, async () => {
    const failed = await failureOf(checkPointSites(7, [{ x: 120, y: 150 }], refusal(RULES)));
    assertEquals(failed.payload.code, "SITE_ASK");
    assertEquals(asked, [[0, { x: 120, y: 150 }], [5, { x: 20, y: 50 }]]);
    await checkPointSites(7, [{ x: 300, y: 150 }], refusal(RULES));
  });
});

Deno.test("a frame hub cannot match refuses the call when a frame it could be is refused", async () => {
  const { chrome } = fakeFrames([
    { frameId: 0, parentFrameId: -1, url: TOP, at: () => ({ index: -1, x: 0, y: 0 }) },
    { frameId: 5, parentFrameId: 0, url: "https://ads.example/", index: 0 },
  ]);
  await withChrome(chrome, async () => {
    const failed = await failureOf(checkPointSites(7, [{ x: 1, y: 1 }], refusal(RULES)));
    assertEquals(failed.payload.code, "SITE_ASK");
  });
});

Deno.test("keys without a target: a focused off frame refuses, focus elsewhere does not", async () => {
  const frames: FakeFrame[] = [
    { frameId: 0, parentFrameId: -1, url: TOP, focus: 0 },
    { frameId: 5, parentFrameId: 0, url: "https://ads.example/ad", index: 0 },
  ];
  const { chrome, asked } = fakeFrames(frames);
  await withChrome(chrome, async () => {
    const failed = await failureOf(checkFocusSites(7, refusal(OFF)));
    assertEquals(failed.payload.code, "SITE_NOT_ALLOWED");
    assertEquals((failed.payload.details as { site: string }).site, "ads.example");
    assertEquals((await failureOf(checkFocusSites(7, refusal(RULES)))).payload.code, "SITE_ASK");
    frames[0].focus = null;
    await checkFocusSites(7, refusal(OFF));
    assertEquals(asked.length, 3);
  });
});

Deno.test("keys without a target: the focus is followed through an allowed frame", async () => {
  const frames: FakeFrame[] = [
    { frameId: 0, parentFrameId: -1, url: TOP, focus: 1 },
    { frameId: 4, parentFrameId: 0, url: "https://ads.example/", index: 0 },
    { frameId: 5, parentFrameId: 0, url: "https://pay.example/", index: 1, focus: 0 },
    { frameId: 9, parentFrameId: 5, url: "https://ads.example/in-pay", index: 0 },
  ];
  const { chrome } = fakeFrames(frames);
  await withChrome(chrome, async () => {
    const failed = await failureOf(checkFocusSites(7, refusal(OFF)));
    assertEquals((failed.payload.details as { url: string }).url, "https://ads.example/in-pay");
    frames[2].focus = null;
    await checkFocusSites(7, refusal(OFF));
  });
});

Deno.test("keys without a target: an unmatched focused frame refuses when one could be off", async () => {
  const frames: FakeFrame[] = [
    { frameId: 0, parentFrameId: -1, url: TOP, focus: -1 },
    { frameId: 5, parentFrameId: 0, url: "https://ads.example/", index: 0 },
  ];
  const { chrome, asked } = fakeFrames(frames);
  await withChrome(chrome, async () => {
    assertEquals(
      (await failureOf(checkFocusSites(7, refusal(OFF)))).payload.code,
      "SITE_NOT_ALLOWED",
    );
    // a tab with no refused frame is not scripted
    asked.length = 0;
    await checkFocusSites(7, refusal({}));
    assertEquals(asked, []);
  });
});

Deno.test("a blank frame an off site wrote is that site's: points refused, focus followed", async () => {
  const frames: FakeFrame[] = [
    { frameId: 0, parentFrameId: -1, url: TOP, focus: 0 },
    { frameId: 5, parentFrameId: 0, url: "about:blank", index: 0, origin: "https://ads.example" },
  ];
  const { chrome } = fakeFrames(frames);
  await withChrome(chrome, async () => {
    const point = await failureOf(checkPointSites(7, [{ x: 1, y: 1 }], refusal(OFF)));
    assertEquals(point.payload.code, "SITE_NOT_ALLOWED");
    assertEquals((point.payload.details as { site: string }).site, "ads.example");
    assertEquals(
      (await failureOf(checkFocusSites(7, refusal(OFF)))).payload.code,
      "SITE_NOT_ALLOWED",
    );
    // the page's own blank frame (an opaque or same-site origin) refuses nothing
    frames[1].origin = "null";
    await checkPointSites(7, [{ x: 1, y: 1 }], refusal(OFF));
    await checkFocusSites(7, refusal(OFF));
  });
});
