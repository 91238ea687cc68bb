/// <reference lib="deno.ns" />
import { assertEquals } from "../../../../tests/helpers/assert.ts";
import type { Permission } from "../../../../protocol/permission.ts";
import { createSiteAccess } from "../site_access.ts";
import type { DocumentAt } from "../document_origin.ts";
import { BLOCKED_MARK, NOT_READ_MARK, type UrlFrame } from "./blocked_frames.ts";
import { keptOutBy, splitByFrameSites } from "./frame_sites.ts";

const RULES: Record<string, Permission> = {
  "off.test": "off",
  "auto.test": "auto",
  "top.test": "ask",
};

function context(siteGrants: string[] = []) {
  const sites = createSiteAccess();
  sites.update({ sitePermissions: RULES, defaultSitePermission: "ask" });
  return { sites, siteGrants };
}

const frame = (frameId: number, parentFrameId: number, url: string): UrlFrame => ({
  frameId,
  parentFrameId,
  url,
});

Deno.test("a whole-tab read keeps out off frames and ask frames not granted; reads the rest", () => {
  const judge = keptOutBy(context(["granted.test"]), "top.test");
  const cases: [string | undefined, string | undefined][] = [
    ["http://off.test/ad", BLOCKED_MARK],
    ["https://mail.test/inbox", NOT_READ_MARK], // ask (the default), not granted
    ["https://granted.test/", undefined], // ask, granted for this call
    ["https://top.test/other", undefined], // ask, the top page's own site key
    ["http://top.test:8080/", NOT_READ_MARK], // another port: another site key
    ["https://auto.test/", undefined],
    ["about:blank", undefined], // no site of its own (its real origin decides: below)
    [undefined, undefined],
  ];
  for (const [url, expected] of cases) assertEquals(judge(url), expected, String(url));
});

Deno.test("a frame without a site is judged by its real origin; nothing is read inside a kept-out one", async () => {
  const all = [
    frame(0, -1, "https://top.test/"),
    frame(1, 0, "about:srcdoc"), // written by the off site: its origin is off.test
    frame(2, 0, "https://mail.test/"), // ask, not granted
    frame(3, 2, "about:blank"), // inside the not-read frame: never asked for its origin
    frame(4, 0, "about:blank"), // the top's own blank frame
    frame(5, 0, "data:text/html,x"), // opaque
    frame(6, 4, "http://off.test/deep"), // off, inside a frame that is read
  ];
  const origins: Record<number, string | undefined> = {
    0: undefined,
    1: "http://off.test",
    3: "https://mail.test",
    4: "https://top.test",
    5: undefined, // "null": no site
  };
  const asked: number[] = [];
  const read = (at: DocumentAt) => {
    asked.push(at.frameId!);
    return Promise.resolve(origins[at.frameId!]);
  };
  const split = await splitByFrameSites(7, all, context(), read);
  assertEquals(split.frames.map((f) => f.frameId), [0, 1, 2, 4, 5, 6]);
  assertEquals(
    [...split.blocked].sort((a, b) => a[0] - b[0]),
    [[1, BLOCKED_MARK], [2, NOT_READ_MARK], [6, BLOCKED_MARK]],
  );
  assertEquals(asked.sort(), [1, 4, 5]);
  assertEquals(split.keptOut("https://mail.test/x"), true);
  assertEquals(split.keptOut("https://top.test/x"), false);
});

Deno.test("a grant for the frame's site reads it, and a top without a site reads its origin", async () => {
  const all = [frame(0, -1, "about:blank"), frame(1, 0, "https://mail.test/")];
  const read = (at: DocumentAt) =>
    Promise.resolve(at.frameId === 0 ? "https://top.test" : undefined);
  const granted = await splitByFrameSites(1, all, context(["mail.test"]), read);
  assertEquals(granted.blocked.size, 0);
  const sameSite = [frame(0, -1, "about:blank"), frame(1, 0, "https://top.test/inner")];
  assertEquals((await splitByFrameSites(1, sameSite, context(), read)).blocked.size, 0);
});
