/// <reference lib="deno.ns" />
import { assertEquals, assertMatch } from "../../../../tests/helpers/assert.ts";
import { hubError } from "../../../../protocol/errors.ts";
import type { BrowserInput } from "../../../../protocol/browser_methods/mod.ts";
import { failureOf, fakeMethodContext } from "../_test_fixtures.ts";
import type { DebuggerSessions, TabSession } from "../debugger_sessions.ts";
import { areaShot } from "./screenshot_area.ts";

const TAB = { id: 4, windowId: 1, active: true } as chrome.tabs.Tab;
const PNG = btoa("png bytes");

function input(fields: Partial<BrowserInput<"tabs.screenshot">>) {
  return { maxBytes: 2_000_000, save: false, fullPage: false, ...fields } as BrowserInput<
    "tabs.screenshot"
  >;
}

/** Sessions whose one tab answers layout metrics for a page of `content` and records captures. */
function fakeSessions(content: { width: number; height: number }, sent: unknown[]) {
  const session: TabSession = {
    tabId: 4,
    children: () => [],
    send: <T>(method: string, params?: Record<string, unknown>) => {
      sent.push([method, params]);
      if (method === "Page.getLayoutMetrics") {
        return Promise.resolve({
          cssLayoutViewport: { pageX: 0, pageY: 500, clientWidth: 1280, clientHeight: 600 },
          cssContentSize: { x: 0, y: 0, ...content },
        } as T);
      }
      return Promise.resolve({ data: PNG } as T);
    },
  };
  return {
    current: () => session,
    session: () => Promise.resolve(session),
  } as unknown as DebuggerSessions;
}

const captures = (sent: unknown[]) =>
  sent.filter((s) => (s as [string])[0] === "Page.captureScreenshot").map((s) =>
    (s as [string, unknown])[1]
  );

Deno.test("fullPage captures the page's whole content size beyond the window", async () => {
  const sent: unknown[] = [];
  const context = fakeMethodContext({
    sessions: fakeSessions({ width: 1265.4, height: 3200 }, sent),
  });
  const shot = await areaShot(TAB, input({ fullPage: true }), context);
  assertEquals(captures(sent), [{
    format: "png",
    clip: { x: 0, y: 0, width: 1266, height: 3200, scale: 1 },
    captureBeyondViewport: true,
  }]);
  assertEquals([shot.area, shot.clip, shot.cut, shot.data], [
    "page",
    { x: 0, y: 0, width: 1266, height: 3200 },
    undefined,
    PNG,
  ]);
});

Deno.test("a capture right after a new attach reads the layout once: the sessions waited for the bar", async () => {
  const sent: unknown[] = [];
  const sessions = fakeSessions({ width: 1280, height: 900 }, sent);
  // Not attached before this call: session() attaches (and waits for the viewport to settle).
  const context = fakeMethodContext({ sessions: { ...sessions, current: () => undefined } });
  await areaShot(TAB, input({ fullPage: true }), context);
  const reads = sent.filter((s) => (s as [string])[0] === "Page.getLayoutMetrics");
  assertEquals(reads.length, 1);
});

Deno.test("a page longer than MAX_CAPTURE_SIDE is cut to its top part, saying so", async () => {
  const sent: unknown[] = [];
  const context = fakeMethodContext({
    sessions: fakeSessions({ width: 1280, height: 50_000 }, sent),
  });
  const shot = await areaShot(TAB, input({ fullPage: true }), context);
  assertEquals(shot.clip, { x: 0, y: 0, width: 1280, height: 16_000 });
  assertEquals(shot.cut, true);
});

Deno.test("fullPage without the debugger fails with the debugger's own error", async () => {
  const off = hubError("DEBUGGER_OFF", "turn it on with hub config set debugger auto");
  const context = fakeMethodContext({
    sessions: {
      current: () => undefined,
      session: () => Promise.reject(off),
    } as unknown as DebuggerSessions,
  });
  const error = await failureOf(areaShot(TAB, input({ fullPage: true }), context));
  assertEquals(error.payload.code, "DEBUGGER_OFF");
  assertMatch(error.payload.message, /hub config set debugger auto/);
});
