/// <reference lib="deno.ns" />
import { assert, assertEquals, assertMatch } from "../../../../tests/helpers/assert.ts";
import { hubError } from "../../../../protocol/errors.ts";
import { failureOf, fakeMethodContext, withChrome } from "../_test_fixtures.ts";
import { createTabCalls } from "../tab_calls.ts";
import { parsedInput } from "./_parsed_input.ts";
import type { MethodContext } from "./browser_method.ts";
import { pageWaitFor, pollUntil, type Round, ROUND_MIN_MS, timeoutError } from "./page_wait_for.ts";
import { type FrameCheck, frameCheckers, judgeFrames, oneCheckAtATime } from "./wait_for_frames.ts";

type Frame = chrome.webNavigation.GetAllFrameResultDetails;

/** A clock that moves only when the loop pauses; `rounds` answer one after the other. */
function fakeLoop(rounds: Array<Round | Error>, timeoutMs = 1_000) {
  let time = 0;
  const pauses: number[] = [];
  let at = 0;
  const round = () => {
    const next = rounds[Math.min(at++, rounds.length - 1)];
    return next instanceof Error ? Promise.reject(next) : Promise.resolve(next);
  };
  const timing = {
    timeoutMs,
    pollMs: 150,
    now: () => time,
    pause: (ms: number) => {
      pauses.push(ms);
      time += ms;
      return Promise.resolve();
    },
  };
  return { run: () => pollUntil(round, timing), pauses, rounds: () => at };
}

const not = (seen: string): Round => ({ met: false, seen });

Deno.test("pollUntil checks every pollMs until the round is met", async () => {
  const loop = fakeLoop([not("a"), not("b"), { met: true, seen: "", element: { ref: "e3" } }]);
  const last = await loop.run();
  assertEquals(last, { met: true, seen: "", element: { ref: "e3" }, waitedMs: 300 });
  assertEquals(loop.pauses, [150, 150]);
});

Deno.test("pollUntil answers the last round once timeoutMs has passed, the last pause shorter", async () => {
  const loop = fakeLoop([not("first"), not("still nothing")], 400);
  const last = await loop.run();
  assertEquals([last.met, last.seen, last.waitedMs], [false, "still nothing", 400]);
  assertEquals(loop.pauses, [150, 150, 100]);
  assertEquals(loop.rounds(), 4, "one more check at the end of the time");
  const zero = await fakeLoop([not("once")], 0).run();
  assertEquals([zero.met, zero.seen, zero.waitedMs], [false, "once", 0]);
});

Deno.test("a navigation interrupts a round, not the wait; other errors end it", async () => {
  const navigated = hubError("TAB_NAVIGATED", "Tab 1 navigated away");
  const loop = fakeLoop([not("old page"), navigated, { met: true, seen: "" }]);
  assertEquals((await loop.run()).met, true);
  const onlyNavigations = await fakeLoop([navigated], 300).run();
  assertMatch(onlyNavigations.seen, /navigated during every check/);
  const closed = hubError("TAB_CLOSED", "Tab 1 was closed");
  const error = await failureOf(fakeLoop([not("x"), closed]).run());
  assertEquals(error.code, "TAB_CLOSED");
});

Deno.test("a pause the tab's navigation cut short goes on; a cancel ends the wait", async () => {
  let rounds = 0;
  const round = () => Promise.resolve(++rounds >= 3 ? { met: true, seen: "" } : not("x"));
  const navigating = () => Promise.reject(hubError("TAB_NAVIGATED", "navigated"));
  assertEquals((await pollUntil(round, { timeoutMs: 5_000, pause: navigating })).met, true);
  const cancelled = () => Promise.reject(hubError("CANCELLED", "ended"));
  const error = await failureOf(pollUntil(() => Promise.resolve(not("x")), {
    timeoutMs: 5_000,
    pause: cancelled,
  }));
  assertEquals(error.code, "CANCELLED");
});

Deno.test("each round gets the time left (at most answerMs, at least ROUND_MIN_MS): a mute page cannot stretch the wait", async () => {
  // A page that never answers: each round takes all the time it is given.
  let time = 0;
  const given: number[] = [];
  const mute = (ms: number) => {
    given.push(ms);
    time += ms;
    return Promise.resolve(not("no answer"));
  };
  const timing = (timeoutMs: number) => ({
    timeoutMs,
    answerMs: 3_000,
    now: () => time,
    pause: (ms: number) => {
      time += ms;
      return Promise.resolve();
    },
  });
  const long = await pollUntil(mute, timing(4_000));
  assertEquals(given, [3_000, 850], "the second round gets what is left after the pause");
  assertEquals(long.waitedMs, 4_000);
  [time, given.length] = [0, 0];
  const edge = await pollUntil(mute, timing(3_100));
  assertEquals(given, [3_000, ROUND_MIN_MS], "the last round, at the deadline, gets the least");
  assertEquals(edge.waitedMs, 3_100 + ROUND_MIN_MS);
  [time, given.length] = [0, 0];
  const none = await pollUntil(mute, timing(0));
  assertEquals([given, none.waitedMs], [[ROUND_MIN_MS], ROUND_MIN_MS]);
});

Deno.test("oneCheckAtATime sends no new check while the last one has not answered", async () => {
  const checker = oneCheckAtATime<string>();
  let starts = 0;
  let answer: (value: string) => void = () => {};
  const start = () => {
    starts++;
    return new Promise<string>((resolve) => (answer = resolve));
  };
  assertEquals(await checker.ask(start, 5), undefined);
  assertEquals(await checker.ask(start, 5), undefined);
  assertEquals(starts, 1, "the second round waits for the same check");
  answer("late answer");
  assertEquals(await checker.ask(start, 5), { value: "late answer" });
  assertEquals([await checker.ask(start, 5), starts], [undefined, 2], "answered: a new check");
  checker.forget();
  await checker.ask(() => Promise.reject(new Error("gone")), 5).then((settled) =>
    assert(settled && "error" in settled, "a failure settles too")
  );
});

Deno.test("frameCheckers: a busy frame is late every round and gets one check, not one a round", async () => {
  let busyScripts = 0;
  const fake = {
    scripting: {
      executeScript: ({ target }: { target: { frameIds: number[] } }) => {
        const frameId = target.frameIds[0];
        if (frameId === 4) {
          busyScripts++;
          return new Promise(() => {}); // a frame busy for good
        }
        return Promise.resolve([{ frameId, result: check(true, "") }]);
      },
    },
  };
  await withChrome(fake, async () => {
    const checkers = frameCheckers();
    const frames = [frame(0, -1), frame(4, 0, "http://pay/")];
    for (let round = 0; round < 3; round++) {
      const { checks, late } = await checkers.check(1, frames, { textGone: "x" } as never, 5);
      assertEquals([[...checks.keys()], [...late]], [[0], [4]]);
    }
    assertEquals(busyScripts, 1);
  });
});

const frame = (frameId: number, parentFrameId: number, url = `http://x/${frameId}`) =>
  ({ frameId, parentFrameId, url }) as Frame;

const check = (
  met: boolean,
  seen: string,
  index = -1,
  shownIndexes?: number[],
  near = false,
): FrameCheck => ({
  ok: true,
  value: { met, seen, ...(near ? { near } : {}) },
  index,
  ...(shownIndexes
    ? { shown: { indexes: shownIndexes, shadowShown: 0, shadowHidden: false } }
    : {}),
});

Deno.test("text: any shown frame that shows it; a frame whose <iframe> is hidden does not count", () => {
  const frames = [frame(0, -1), frame(4, 0, "http://other/pay"), frame(6, 0)];
  const inFrame = new Map([[0, check(false, "Top")], [4, check(true, "Paid", 0)]]);
  assertEquals(judgeFrames(frames, inFrame, true).met, true);
  const hiddenFrame = new Map([
    [0, check(false, "Top", -1, [1])],
    [4, check(true, "Paid", 0)],
    [6, check(false, "Other", 1)],
  ]);
  assertEquals(judgeFrames(frames, hiddenFrame, true), { met: false, seen: '"Top"' });
  const near = new Map([[0, check(false, "Top")], [
    4,
    check(false, "order #1", 0, undefined, true),
  ]]);
  assertEquals(judgeFrames(frames, near, true).seen, '"order #1" (in the frame http://other/pay)');
});

Deno.test("text: shadow-root frames count only when the top accounts for every one (closed roots)", () => {
  const frames = [frame(0, -1), frame(2, 0, "http://evil/"), frame(3, 0, "http://bank/")];
  const top = (shadowShown: number, shadowHidden = false): FrameCheck => ({
    ...check(false, "Top"),
    shown: { indexes: [], shadowShown, shadowHidden },
  });
  const evil = (t: FrameCheck) =>
    new Map([[0, t], [2, check(true, "EVIL")], [3, check(false, "Bank")]]);
  // The top counted one shadow-root frame, two answer -1: one sits in a closed root, maybe hidden.
  assertEquals(judgeFrames(frames, evil(top(1)), true).met, false);
  assertEquals(judgeFrames(frames, evil(top(2, true)), true).met, false);
  assertEquals(judgeFrames(frames, evil(top(2)), true).met, true);
});

Deno.test("textGone: met when the top answered and no shown frame shows it", () => {
  const frames = [frame(0, -1), frame(4, 0, "http://other/pay")];
  const gone = new Map([[0, check(true, "")], [4, check(true, "", 0)]]);
  assertEquals(judgeFrames(frames, gone, false), { met: true, seen: "" });
  const still = new Map([[0, check(true, "")], [4, check(false, "Loading…", 0)]]);
  assertEquals(judgeFrames(frames, still, false), {
    met: false,
    seen: '"Loading…" (in the frame http://other/pay)',
  });
  const topMute = new Map([[4, check(true, "", 0)]]);
  assertEquals(judgeFrames(frames, topMute, false), {
    met: false,
    seen: "nothing (no frame answered)",
    topMissing: true,
  });
});

Deno.test("textGone: a shown frame that did not answer may still show it, so it is not met", () => {
  const frames = [frame(0, -1), frame(4, 0, "http://pay/" + "p".repeat(200)), frame(6, 0)];
  const late = new Set([4]);
  const checks = new Map([[0, check(true, "")], [6, check(true, "", 1)]]);
  const silent = judgeFrames(frames, checks, false, late);
  assertEquals(silent.met, false);
  assertMatch(silent.silent ?? "", /^the frame http:\/\/pay\/p+…$/);
  assertEquals(silent.seen, `no answer from ${silent.silent}`);
  // A frame whose <iframe> its parent says is hidden does not count, answered or not.
  const hidden = new Map([[0, check(true, "", -1, [1])], [6, check(true, "", 1)]]);
  assertEquals(judgeFrames(frames, hidden, false, new Set([4])).met, false, "no place: counts");
  const placed = new Map([...hidden, [4, check(true, "", 0)]]);
  assertEquals(judgeFrames(frames, placed, false).met, true);
  // A frame that still shows it is named first; text is met by any frame that shows it.
  const showing = new Map([[0, check(false, "Loading")], [6, check(true, "", 1)]]);
  assertEquals(judgeFrames(frames, showing, false, late), { met: false, seen: '"Loading"' });
  const appear = new Map([[0, check(true, "Paid")]]);
  assertEquals(judgeFrames(frames, appear, true, new Set([4, 6])).met, true);
  const topLate = judgeFrames(frames, new Map(), false, new Set([0, 4]));
  assertEquals(topLate.silent, "the page (and 1 more)");
});

Deno.test("a failure the top document's kit reports is the call's error", async () => {
  const failedTop = new Map<number, FrameCheck>([
    [0, { ok: false, error: { code: "PAGE_ERROR", message: "boom" }, index: -1 }],
  ]);
  const error = await failureOf(Promise.resolve().then(() => judgeFrames([], failedTop, true)));
  assertEquals([error.code, error.message], ["PAGE_ERROR", "boom"]);
});

Deno.test("a bad /regex/ fails with INVALID_ARGUMENTS before any tab is touched", async () => {
  const error = await failureOf(
    pageWaitFor(parsedInput("page.waitFor", { text: "/(/" }), {} as MethodContext),
  );
  assertEquals(error.code, "INVALID_ARGUMENTS");
  assertMatch(error.message, /"\/\(\/" is not a valid regular expression/);
});

Deno.test("WAIT_TIMEOUT says what was waited for and what was seen", () => {
  const text = timeoutError(parsedInput("page.waitFor", { text: "Done" }), 7, '"Working…"');
  assertEquals(text.code, "WAIT_TIMEOUT");
  assertMatch(text.message, /^"Done" did not show on tab 7 \(any frame\) within 10000 ms\./);
  assertMatch(text.message, /The page showed "Working…"\. Text hidden from people does not count/);
  const gone = timeoutError(
    parsedInput("page.waitFor", { textGone: "Loading", timeoutMs: 500 }),
    7,
    '"Loading…"',
  );
  assertMatch(gone.message, /^"Loading" was still on tab 7 after 500 ms: "Loading…"\./);
  const element = timeoutError(
    parsedInput("page.waitFor", { selector: "#toast", frame: "#f", state: "hidden" }),
    7,
    "1 matching element, visible",
  );
  assertMatch(
    element.message,
    /^The element of selector "#toast" in the frame "#f" was not hidden on tab 7 within 10000 ms \(last seen: 1 matching element, visible\)/,
  );
  const silent = timeoutError(
    parsedInput("page.waitFor", { textGone: "Processing", timeoutMs: 900 }),
    7,
    "no answer from the frame http://pay/",
    "the frame http://pay/",
  );
  assertMatch(
    silent.message,
    /^"Processing" could not be seen gone from tab 7 within 900 ms: the frame http:\/\/pay\/ did not answer \(busy running a script, or stuck\), so the text may still be there; textGone holds only when every shown frame answered without it\./,
  );
  const mute = timeoutError(parsedInput("page.waitFor", { text: "Paid" }), 7, '"Top"', "the page");
  assertMatch(mute.message, /The page showed "Top"\. The page did not answer in time\. Text/);
  const ref = timeoutError(parsedInput("page.waitFor", { ref: "f1e3" }), 7, "no element matches");
  assert(ref.message.startsWith('The element of ref "f1e3" was not visible'), ref.message);
  assertMatch(ref.message, /An element hidden from people .* is not visible\. Look with/);
  const detached = timeoutError(
    parsedInput("page.waitFor", { selector: "#toast", state: "detached" }),
    7,
    "1 matching element, hidden",
  );
  assertMatch(
    detached.message,
    /\(last seen: 1 matching element, hidden\)\. Look with browser_snapshot/,
  );
  assert(!detached.message.includes("hidden from people"), "the visibility rule is not detached's");
});

/**
 * A fake `chrome` for one tab with two frames (0, and 4 cross-origin): each executeScript answers
 * the frame's next check from `script` (by frameId and round); `onRound` runs before it answers.
 */
function fakeTab(
  script: (frameId: number, round: number) => FrameCheck,
  onRound: (round: number) => void = () => {},
) {
  const rounds = new Map<number, number>();
  return {
    tabs: { get: (tabId: number) => Promise.resolve({ id: tabId, url: "http://top/" }) },
    webNavigation: {
      getAllFrames: () =>
        Promise.resolve([frame(0, -1, "http://top/"), frame(4, 0, "http://pay/")]),
    },
    scripting: {
      executeScript: ({ target }: { target: { frameIds: number[] } }) => {
        const frameId = target.frameIds[0];
        const round = (rounds.get(frameId) ?? 0) + 1;
        rounds.set(frameId, round);
        if (frameId === 0) onRound(round);
        return Promise.resolve([{ frameId, result: script(frameId, round) }]);
      },
    },
  };
}

Deno.test("pageWaitFor polls every frame until one shows the text, across a navigation", async () => {
  const calls = createTabCalls();
  const context = fakeMethodContext({ calls });
  // Round 2: the tab navigates while frame 0 is being checked; round 3: frame 4 shows the text.
  const chrome = fakeTab(
    (frameId, round) => check(frameId === 4 && round >= 3, "Waiting", frameId === 4 ? 0 : -1),
    (round) => round === 2 && calls.navigated(5, "http://top/next"),
  );
  await withChrome(chrome, async () => {
    const done = await pageWaitFor(
      parsedInput("page.waitFor", { tabId: 5, text: "Paid" }),
      context,
    );
    assertEquals([done.tabId, done.matched, done.element], [5, "text", undefined]);
  });
});

Deno.test("pageWaitFor fails with WAIT_TIMEOUT naming what the frames showed", async () => {
  const context = fakeMethodContext();
  const chrome = fakeTab((frameId) =>
    frameId === 0 ? check(true, "") : check(false, "Loading… please wait", 0)
  );
  await withChrome(chrome, async () => {
    const input = parsedInput("page.waitFor", { tabId: 5, textGone: "Loading", timeoutMs: 200 });
    const error = await failureOf(pageWaitFor(input, context));
    assertEquals(error.code, "WAIT_TIMEOUT");
    assertMatch(
      error.message,
      /^"Loading" was still on tab 5 after 200 ms: "Loading… please wait" \(in the frame http:\/\/pay\/\)\./,
    );
  });
});

Deno.test("pageWaitFor: textGone times out when a frame is busy, naming it, though no frame shows the text", async () => {
  const context = fakeMethodContext();
  let busyChecks = 0;
  const chrome = fakeTab((frameId) => frameId === 0 ? check(true, "") : check(true, "", 0));
  const scripting = chrome.scripting.executeScript;
  chrome.scripting.executeScript = (details) => {
    if (details.target.frameIds[0] !== 4) return scripting(details);
    busyChecks++;
    return new Promise(() => {}); // the frame showed the text, then got busy
  };
  await withChrome(chrome, async () => {
    const input = parsedInput("page.waitFor", { tabId: 5, textGone: "Processing", timeoutMs: 0 });
    const error = await failureOf(pageWaitFor(input, context));
    assertEquals(error.code, "WAIT_TIMEOUT");
    assertMatch(
      error.message,
      /^"Processing" could not be seen gone from tab 5 within 0 ms: the frame http:\/\/pay\/ did not answer/,
    );
    assertEquals(busyChecks, 1);
  });
});
