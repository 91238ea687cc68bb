/// <reference lib="deno.ns" />
/**
 * readConsole against a hostile page, with a fake `chrome.debugger`: a formatter call that never
 * answers (a logged Proxy whose trap loops) is stopped (Debugger.pause, then Debugger.resume with
 * terminateOnResume: Chromium refuses Runtime.terminateExecution to extensions), the entry
 * keeps what the debugger described with a note, the shared session is left as it was found (and
 * detaches with the others), a page that returns huge texts is cut in the worker, and the next
 * read of the tab still works.
 */
import { assert, assertEquals } from "../../../../tests/helpers/assert.ts";
import { type FakeDebugger, fakeDebugger, withChrome } from "../_test_fixtures.ts";
import { NOT_FORMATTED, readConsole } from "./console_debugger.ts";
import { createDebuggerSessions } from "../debugger_sessions.ts";
import { MAX_ENTRY_CHARS } from "../../page/console_format.ts";

const MAIN = "frame-main";
const bounds = { pauseMs: 50, readMs: 400 };
const newSessions = () => createDebuggerSessions({ sendMs: 50, log: { info() {}, warn() {} } });
const tabs = {
  get: (tabId: number) => Promise.resolve({ id: tabId, url: "https://example.com/" }),
};
const all = { keep: () => true, limit: 1000, clear: false };

interface Fake extends FakeDebugger {
  /** The page ignores Debugger.pause (stopping fails), or refuses Debugger.enable. */
  unstoppable?: boolean;
  noDebugger?: boolean;
  /** Formatter calls still running in the "page" (never answered, not terminated). */
  running: number;
}

/** `count` logged objects; `format` says what the page's formatter does with object `i`. */
async function withPage(
  count: number,
  format: (i: number) => "hang" | string,
  body: (fake: Fake) => Promise<void>,
  options: Partial<Fake> = {},
) {
  const fake: Fake = { commands: [], attached: false, running: 0, ...options };
  const hung: (() => void)[] = [];
  const events: [string, Record<string, unknown>][] = [
    ["Runtime.executionContextCreated", {
      context: { id: 1, auxData: { isDefault: true, frameId: MAIN } },
    }],
    ...Array.from({ length: count }, (_, i): [string, Record<string, unknown>] => [
      "Runtime.consoleAPICalled",
      {
        type: "log",
        timestamp: i,
        executionContextId: 1,
        args: [{
          type: "object",
          className: "Object",
          description: "Proxy(Object)",
          objectId: `${i}`,
        }],
      },
    ]),
  ];
  await withChrome({
    tabs,
    debugger: fakeDebugger(fake, MAIN, events, (method, params, emit) => {
      if (method === "Debugger.enable" && fake.noDebugger) {
        return Promise.reject(new Error("Debugger.enable refused"));
      }
      if (method === "Debugger.pause" && fake.running > 0 && !fake.unstoppable) {
        emit("Debugger.paused", {});
      }
      if (method === "Debugger.resume") {
        assertEquals((params as { terminateOnResume?: boolean }).terminateOnResume, true);
        fake.running = 0;
        for (const stop of hung.splice(0)) stop();
      }
      if (method === "Runtime.terminateExecution") {
        return Promise.reject(new Error("not allowed for untrusted clients"));
      }
      if (method === "Runtime.callFunctionOn") {
        const text = format(Number(params?.objectId));
        if (text !== "hang") return Promise.resolve({ result: { value: text } });
        fake.running++;
        // Answers only once terminated, with the error V8 gives then.
        return new Promise((_, reject) => hung.push(() => reject(new Error("terminated"))));
      }
      return undefined;
    }),
  }, () => body(fake));
}

Deno.test("a formatter call that hangs is terminated, the entry noted, the session reused", async () => {
  await withPage(3, (i) => i === 1 ? "hang" : `entry ${i}`, async (fake) => {
    const sessions = newSessions();
    const read = await readConsole(sessions, 4, all, bounds);
    assertEquals(read.total, 3);
    assertEquals(read.entries.map((e) => e.text), [
      "entry 0",
      `Proxy(Object) ${NOT_FORMATTED}`,
      "entry 2",
    ]);
    assert(fake.commands.includes("Debugger.resume"));
    assert(!fake.commands.includes("Runtime.terminateExecution"));
    assertEquals(fake.running, 0);
    assertEquals(fake.commands.slice(-2), ["Debugger.disable", "Runtime.disable"]);
    // The tab's reads are not stuck behind it.
    assertEquals((await readConsole(sessions, 4, all, bounds)).entries.length, 3);
    assertEquals(fake.commands.filter((c) => c === "Target.setAutoAttach").length, 1);
    await sessions.detachAll();
    assertEquals(fake.attached, false);
  });
});

Deno.test("past the read's bound the rest keep their description, marked; nothing hangs", async () => {
  await withPage(40, () => "hang", async (fake) => {
    const sessions = newSessions();
    const read = await readConsole(sessions, 4, all, bounds);
    assertEquals(read.entries.length, 40);
    assert(read.entries.every((e) => e.text === `Proxy(Object) ${NOT_FORMATTED}`));
    // One page call at a time, each stopped: far fewer than 40 were tried within the bound.
    const tried = fake.commands.filter((c) => c === "Runtime.callFunctionOn").length;
    assert(tried < 40, `${tried} formatter calls`);
    assertEquals(fake.running, 0);
    await sessions.detachAll();
    assertEquals(fake.attached, false);
  });
});

Deno.test("texts a patched page returns unbounded are cut in the worker", async () => {
  await withPage(2, () => "x".repeat(5 * MAX_ENTRY_CHARS), async (fake) => {
    const sessions = newSessions();
    const read = await readConsole(sessions, 4, all, bounds);
    for (const entry of read.entries) {
      assert(entry.text.length <= MAX_ENTRY_CHARS + 20, `${entry.text.length} characters`);
      assert(entry.text.endsWith("…[truncated]"));
    }
    await sessions.detachAll();
    assertEquals(fake.attached, false);
  });
});

Deno.test("a debugger command that never answers fails the read in bounded time", async () => {
  const fake = { attached: false };
  await withChrome({
    tabs,
    debugger: {
      attach: () => Promise.resolve(void (fake.attached = true)),
      detach: () => Promise.resolve(void (fake.attached = false)),
      onEvent: { addListener: () => {}, removeListener: () => {} },
      onDetach: { addListener: () => {}, removeListener: () => {} },
      sendCommand: () => new Promise(() => {}),
    },
  }, async () => {
    const sessions = newSessions();
    const failed = await readConsole(sessions, 4, all, bounds).then(
      () => undefined,
      (error: Error) => error.message,
    );
    assert(failed?.includes("did not answer"), failed);
    await sessions.detachAll();
    assertEquals(fake.attached, false);
  });
});

Deno.test("page code that cannot be stopped: no more page calls, the rest noted", async () => {
  await withPage(5, (i) => i === 1 ? "hang" : `entry ${i}`, async (fake) => {
    const sessions = newSessions();
    const read = await readConsole(sessions, 4, all, bounds);
    assertEquals(read.entries.map((e) => e.text), [
      "entry 0",
      ...Array(4).fill(`Proxy(Object) ${NOT_FORMATTED}`),
    ]);
    assertEquals(fake.commands.filter((c) => c === "Runtime.callFunctionOn").length, 2);
    await sessions.detachAll();
    assertEquals(fake.attached, false);
  }, { unstoppable: true });
});

Deno.test("without the debugger's pause no page code runs: objects keep their description", async () => {
  await withPage(2, () => "formatted", async (fake) => {
    const sessions = newSessions();
    const read = await readConsole(sessions, 4, all, bounds);
    assert(read.entries.every((e) => e.text === `Proxy(Object) ${NOT_FORMATTED}`));
    assert(!fake.commands.includes("Runtime.callFunctionOn"));
    await sessions.detachAll();
    assertEquals(fake.attached, false);
  }, { noDebugger: true });
});

Deno.test("Runtime already on in the shared session: off and on for the replay, left on after", async () => {
  await withPage(2, (i) => `entry ${i}`, async (fake) => {
    const sessions = newSessions();
    const session = await sessions.session(4);
    await session.send("Runtime.enable"); // another user of the session (the ref resolver)
    const before = fake.commands.length;
    const read = await readConsole(sessions, 4, all, bounds);
    assertEquals(read.entries.map((e) => e.text), ["entry 0", "entry 1"]);
    const during = fake.commands.slice(before);
    assertEquals(during.slice(0, 3), ["Page.getFrameTree", "Runtime.disable", "Runtime.enable"]);
    assertEquals(during.at(-1), "Debugger.disable");
    await sessions.detachAll();
  });
});
