/// <reference lib="deno.ns" />
/**
 * The shared debugger sessions against a fake `chrome.debugger`: one attach per tab for
 * concurrent callers, hooks for the page and for out-of-process frames' child sessions, idle
 * detach (held off by `hold` and by commands in flight), bounded commands and attach, the
 * `off` mode, pages never attached, another debugger (busy) versus this extension's own stale
 * attachment, the user's Cancel on Chromium's bar, and the tab closing.
 */
import { assert, assertEquals } from "../../../tests/helpers/assert.ts";
import { failureOf, withChrome } from "./_test_fixtures.ts";
import { childRefusal } from "./debugger_children.ts";
import {
  createDebuggerSessions,
  type DebuggerSessions,
  isSendTimeout,
  neverAttachReason,
  type TabSession,
} from "./debugger_sessions.ts";

type Listener = (...args: unknown[]) => void;

function event() {
  const listeners = new Set<Listener>();
  return {
    listeners,
    addListener: (l: Listener) => listeners.add(l),
    removeListener: (l: Listener) => listeners.delete(l),
    fire: (...args: unknown[]) => {
      for (const l of [...listeners]) l(...args);
    },
  };
}

interface Sent {
  tabId?: number;
  sessionId?: string;
  method: string;
  params?: Record<string, unknown>;
}

/** A browser whose tabs show `urls`; its debugger records attaches, detaches and commands. */
function fakeBrowser(urls: Record<number, string>) {
  const onEvent = event();
  const onDetach = event();
  const onRemoved = event();
  const fake = {
    attached: new Set<number>(),
    attaches: 0,
    sent: [] as Sent[],
    /** Another client holds these tabs: attach fails and so does this extension's detach. */
    busy: new Set<number>(),
    /** This extension's own attachment from before a worker restart. */
    stale: new Set<number>(),
    hangAttach: false,
    /** Child sessions the page has (out-of-process frames), announced on setAutoAttach. */
    frames: [] as { sessionId: string; url: string; type?: string }[],
    answer: (_s: Sent): Promise<unknown> | undefined => undefined,
    emit: (tabId: number, method: string, params: unknown, sessionId?: string) =>
      onEvent.fire(sessionId ? { tabId, sessionId } : { tabId }, method, params),
    onDetach,
    onRemoved,
  };
  const chrome = {
    tabs: {
      get: (tabId: number) =>
        tabId in urls
          ? Promise.resolve({ id: tabId, url: urls[tabId] })
          : Promise.reject(new Error(`No tab with id: ${tabId}.`)),
      onRemoved,
    },
    debugger: {
      attach: ({ tabId }: { tabId: number }) => {
        fake.attaches++;
        if (fake.hangAttach) return new Promise(() => {});
        if (fake.busy.has(tabId) || fake.stale.has(tabId) || fake.attached.has(tabId)) {
          return Promise.reject(
            new Error(`Another debugger is already attached to the tab with id: ${tabId}.`),
          );
        }
        fake.attached.add(tabId);
        return Promise.resolve();
      },
      detach: ({ tabId }: { tabId: number }) => {
        if (fake.stale.delete(tabId) || fake.attached.delete(tabId)) return Promise.resolve();
        return Promise.reject(new Error(`Debugger is not attached to the tab with id: ${tabId}.`));
      },
      sendCommand: (
        target: { tabId: number; sessionId?: string },
        method: string,
        params?: Record<string, unknown>,
      ) => {
        if (!fake.attached.has(target.tabId)) {
          return Promise.reject(new Error("Debugger is not attached"));
        }
        const sent: Sent = { ...target, method, params };
        fake.sent.push(sent);
        if (method === "Target.setAutoAttach" && !target.sessionId) {
          for (const frame of fake.frames) {
            fake.emit(target.tabId, "Target.attachedToTarget", {
              sessionId: frame.sessionId,
              targetInfo: {
                targetId: `t-${frame.sessionId}`,
                type: frame.type ?? "iframe",
                url: frame.url,
              },
              waitingForDebugger: false,
            });
          }
        }
        return fake.answer(sent) ?? Promise.resolve({});
      },
      onEvent,
      onDetach,
    },
  };
  return { fake, chrome };
}

const WEB = "https://example.com/";

async function withBrowser(
  urls: Record<number, string>,
  options: { idleMs?: number; sendMs?: number },
  body: (
    fake: ReturnType<typeof fakeBrowser>["fake"],
    sessions: DebuggerSessions,
    logged: string[],
  ) => Promise<void>,
) {
  const { fake, chrome } = fakeBrowser(urls);
  const logged: string[] = [];
  const log = { info: (m: string) => logged.push(m), warn: (m: string) => logged.push(m) };
  await withChrome(chrome, async () => {
    const sessions = createDebuggerSessions({ sendMs: 200, ...options, log });
    try {
      await body(fake, sessions, logged);
    } finally {
      await sessions.detachAll();
    }
  });
}

const until = async (check: () => boolean) => {
  for (let i = 0; i < 400 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
  assert(check(), "the condition did not come true");
};

Deno.test("one attach for concurrent callers; the page's hooks run once; reused after", async () => {
  await withBrowser({ 4: WEB }, {}, async (fake, sessions) => {
    const seen: (string | undefined)[] = [];
    sessions.onSession(async (session, sessionId) => {
      seen.push(sessionId);
      await session.send("Page.enable", {}, { sessionId });
    });
    let changes = 0;
    sessions.onChange(() => changes++);
    assertEquals(sessions.current(4), undefined);
    const [a, b] = await Promise.all([sessions.session(4), sessions.session(4)]);
    assert(a === b);
    assertEquals(fake.attaches, 1);
    assertEquals(seen, [undefined]);
    const auto = fake.sent.find((s) => s.method === "Target.setAutoAttach")!;
    assertEquals(
      [auto.params?.autoAttach, auto.params?.flatten, auto.params?.waitForDebuggerOnStart],
      [true, true, false],
    );
    // The hook ran before the session was handed out.
    assert(fake.sent.some((s) => s.method === "Page.enable" && s.sessionId === undefined));
    assert(sessions.current(4) === a);
    assertEquals(sessions.attachedTabs(), [4]);
    assert(changes >= 1);
    assert((await sessions.session(4)) === a);
    assertEquals(fake.attaches, 1);
    assertEquals(await a.send("Runtime.evaluate", { expression: "1" }), {});
  });
});

/**
 * What the hooks saw: the session ids `onSession` ran for (undefined for the page's own) and the
 * events, each as "<session id or page> <method>".
 */
function recordHooks(sessions: DebuggerSessions) {
  const seen: (string | undefined)[] = [];
  sessions.onSession((_session, sessionId) => {
    seen.push(sessionId);
    return Promise.resolve();
  });
  const events: string[] = [];
  sessions.onEvent((e) => events.push(`${e.sessionId ?? "page"} ${e.method}`));
  return { seen, events };
}

Deno.test("out-of-process frames: child sessions get their hooks, commands and auto-attach", async () => {
  await withBrowser({ 4: WEB }, {}, async (fake, sessions) => {
    fake.frames = [
      { sessionId: "child-1", url: "https://other.test/frame" },
      { sessionId: "worker-1", url: "https://other.test/w.js", type: "worker" },
    ];
    const { seen, events } = recordHooks(sessions);
    const session = await sessions.session(4);
    assertEquals(seen, [undefined, "child-1"]);
    assertEquals(session.children(), [
      { sessionId: "child-1", targetId: "t-child-1", url: "https://other.test/frame" },
    ]);
    // The child reaches its own out-of-process frames too.
    assert(fake.sent.some((s) => s.method === "Target.setAutoAttach" && s.sessionId === "child-1"));
    await session.send("DOM.getDocument", {}, { sessionId: "child-1" });
    assertEquals(fake.sent.at(-1), {
      tabId: 4,
      sessionId: "child-1",
      method: "DOM.getDocument",
      params: {},
    });
    fake.emit(4, "Page.frameNavigated", { frame: {} }, "child-1");
    assert(events.includes("child-1 Page.frameNavigated"));
    fake.emit(4, "Target.detachedFromTarget", { sessionId: "child-1" });
    assertEquals(session.children(), []);
  });
});

Deno.test("frames that are not a web page's (an extension's, a browser page) get no hooks and are detached", async () => {
  await withBrowser({ 4: WEB }, {}, async (fake, sessions) => {
    fake.frames = [
      { sessionId: "web-1", url: "https://other.test/frame" },
      { sessionId: "ext-1", url: "chrome-extension://abcdefghijklmnop/fill.html" },
      { sessionId: "blob-1", url: "blob:chrome-extension://abcdefghijklmnop/1-2-3" },
      { sessionId: "data-1", url: "data:text/html,<p>hi</p>" },
    ];
    const { seen, events } = recordHooks(sessions);
    const session = await sessions.session(4);
    assertEquals(seen.sort(), ["data-1", "web-1", undefined].sort());
    assertEquals(session.children().map((c) => c.sessionId).sort(), ["data-1", "web-1"]);
    const detachedFrom = () =>
      fake.sent.filter((s) => s.method === "Target.detachFromTarget")
        .map((s) => s.params?.sessionId);
    await until(() => detachedFrom().length === 2);
    assertEquals(detachedFrom().sort(), ["blob-1", "ext-1"]);
    assert(!fake.sent.some((s) => s.sessionId === "ext-1" || s.sessionId === "blob-1"));
    // What such a frame says is not passed on.
    fake.emit(4, "Runtime.consoleAPICalled", { args: [] }, "ext-1");
    assert(!events.some((e) => e.startsWith("ext-1")), events.join("\n"));
    // A web frame that navigates to a browser page is left the same way.
    fake.emit(4, "Target.targetInfoChanged", {
      targetInfo: { targetId: "t-web-1", type: "iframe", url: "chrome://settings/" },
    });
    await until(() => detachedFrom().length === 3);
    assertEquals(detachedFrom().at(-1), "web-1");
    assertEquals(session.children().map((c) => c.sessionId), ["data-1"]);
  });
  assertEquals(childRefusal("https://a.test/"), undefined);
  assertEquals(childRefusal("about:blank"), undefined);
  assertEquals(childRefusal(""), undefined);
  assertEquals(childRefusal("chrome://newtab/"), "a chrome: page");
  assertEquals(childRefusal("chrome-untrusted://print/"), "a chrome-untrusted: page");
});

/** Answers Page.getLayoutMetrics with `sizes` in turn (the last one from then on). */
function viewports(fake: ReturnType<typeof fakeBrowser>["fake"], sizes: number[]) {
  const read: number[] = [];
  fake.answer = (s) => {
    if (s.method !== "Page.getLayoutMetrics") return undefined;
    const height = sizes[Math.min(read.length, sizes.length - 1)];
    read.push(height);
    return Promise.resolve({ cssLayoutViewport: { clientWidth: 1280, clientHeight: height } });
  };
  return read;
}

Deno.test("a new attach is handed out once the viewport holds still (Chromium's bar takes room)", async () => {
  await withBrowser({ 4: WEB, 5: WEB }, {}, async (fake, sessions) => {
    // The bar shows after the attach: the page shrinks by 40 px, in two steps.
    const read = viewports(fake, [720, 720, 700, 680]);
    await sessions.session(4);
    assertEquals(read.slice(-2), [680, 680], "handed out only after two equal reads at 680");
    // The session already attached is handed out at once: no more reads.
    const reads = read.length;
    await sessions.session(4);
    assertEquals(read.length, reads);

    // The bar is one for the whole browser: while tab 4 is attached it is there already.
    const second = viewports(fake, [680]);
    await sessions.session(5);
    assertEquals(second, []);

    // No bar (headless): steady from the start; a few reads only.
    await sessions.detachAll();
    const steady = viewports(fake, [720]);
    await sessions.session(5);
    assert(steady.length >= 1 && steady.length <= 8, `${steady.length} reads`);
  });
});

Deno.test("idle tabs detach; a hold or a command in flight keeps them; listeners hear why", async () => {
  await withBrowser({ 4: WEB, 5: WEB }, { idleMs: 30 }, async (fake, sessions) => {
    const detached: string[] = [];
    sessions.onDetach((tabId, reason) => detached.push(`${tabId} ${reason}`));
    await sessions.session(4);
    await until(() => !fake.attached.has(4));
    assertEquals(detached, ["4 idle"]);
    assertEquals(sessions.attachedTabs(), []);
    assertEquals(sessions.current(4), undefined);

    // Held (an open dialog): stays past the idle time, detaches once released.
    const session = await sessions.session(5);
    const release = sessions.hold(5);
    await new Promise((r) => setTimeout(r, 100));
    assert(fake.attached.has(5));
    release();
    release(); // a second release is harmless
    await until(() => !fake.attached.has(5));

    // A slow command keeps the tab attached until it answers.
    const slow = await sessions.session(4);
    let answer = () => {};
    fake.answer = (s) =>
      s.method === "Slow.command"
        ? new Promise((resolve) => answer = () => resolve({ done: true }))
        : undefined;
    const pending = slow.send("Slow.command", {}, { timeoutMs: 5_000 });
    await new Promise((r) => setTimeout(r, 100));
    assert(fake.attached.has(4));
    answer();
    assertEquals(await pending, { done: true });
    await until(() => !fake.attached.has(4));
    // A session handed out before its tab detached says so instead of sending.
    const stale = await failureOfAny(session.send("Page.reload"));
    assert(/no longer attached/.test(stale), stale);
  });
});

async function failureOfAny(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return String((error as Error).message);
  }
  throw new Error("expected a failure");
}

Deno.test("a command that never answers fails within its bound; the attach too", async () => {
  await withBrowser({ 4: WEB }, { sendMs: 50 }, async (fake, sessions) => {
    const session = await sessions.session(4);
    fake.answer = (s) => s.method === "Never.answers" ? new Promise(() => {}) : undefined;
    const error = await session.send("Never.answers").then(() => undefined, (e) => e);
    assert(isSendTimeout(error), String(error));
    // CDP's own error texts come back readable.
    fake.answer = () => Promise.reject(new Error('{"code":-32000,"message":"No node found"}'));
    assertEquals(await failureOfAny(session.send("DOM.focus")), "DOM.focus: No node found");
  });
  await withBrowser({ 4: WEB }, { sendMs: 50 }, async (fake, sessions) => {
    fake.hangAttach = true;
    assertEquals((await failureOf(sessions.session(4))).payload.code, "TIMEOUT");
    assertEquals(sessions.attachedTabs(), []);
  });
});

Deno.test("debugger off: no attach, DEBUGGER_OFF naming the way back; turning off detaches", async () => {
  await withBrowser({ 4: WEB }, {}, async (fake, sessions) => {
    await sessions.session(4);
    const detached: string[] = [];
    sessions.onDetach((tabId, reason) => detached.push(`${tabId} ${reason}`));
    let changes = 0;
    sessions.onChange(() => changes++);
    await sessions.setMode("off");
    assertEquals(sessions.mode(), "off");
    assertEquals(fake.attached.size, 0);
    assertEquals(detached, ["4 off"]);
    assert(changes >= 2);
    const off = await failureOf(sessions.session(4));
    assertEquals(off.payload.code, "DEBUGGER_OFF");
    assert(off.message.includes("hub config set debugger auto"), off.message);
    assertEquals(fake.attaches, 1);
    await sessions.setMode("auto");
    await sessions.session(4);
    assertEquals(fake.attaches, 2);
  });
});

Deno.test("browser pages, other extensions, the Web Store, file: and view-source: are never attached", async () => {
  const urls = {
    1: "chrome://settings/",
    2: "chrome-extension://abcdefghijklmnop/page.html",
    3: "https://chromewebstore.google.com/detail/x",
    4: "https://chrome.google.com/webstore/detail/x",
    5: "file:///tmp/a.html",
    6: "view-source:https://example.com/",
    7: "devtools://devtools/bundled/inspector.html",
  };
  await withBrowser(urls, {}, async (fake, sessions) => {
    for (const tabId of Object.keys(urls).map(Number)) {
      const refused = await failureOf(sessions.session(tabId));
      assertEquals(refused.payload.code, "NOT_A_WEB_PAGE", `tab ${tabId}`);
    }
    assertEquals(fake.attaches, 0);
    assertEquals((await failureOf(sessions.session(99))).payload.code, "TAB_NOT_FOUND");
  });
  assertEquals(neverAttachReason("http://127.0.0.1:8080/x"), undefined);
  assertEquals(neverAttachReason("https://chrome.google.com/search"), undefined);
});

Deno.test("another debugger holds the tab: DEBUGGER_BUSY; this extension's stale attachment is taken over", async () => {
  await withBrowser({ 4: WEB, 5: WEB }, {}, async (fake, sessions) => {
    fake.busy.add(4);
    const busy = await failureOf(sessions.session(4));
    assertEquals(busy.payload.code, "DEBUGGER_BUSY");
    assert(busy.message.includes("DevTools"), busy.message);
    assertEquals(sessions.attachedTabs(), []);
    fake.stale.add(5);
    await sessions.session(5);
    assertEquals(sessions.attachedTabs(), [5]);
    assert(fake.attached.has(5));
  });
});

Deno.test("Cancel on Chromium's bar detaches: logged, listeners told, the next call attaches again", async () => {
  await withBrowser({ 4: WEB }, {}, async (fake, sessions, logged) => {
    const first: TabSession = await sessions.session(4);
    const detached: string[] = [];
    sessions.onDetach((tabId, reason) => detached.push(`${tabId} ${reason}`));
    fake.attached.delete(4);
    fake.onDetach.fire({ tabId: 4 }, "canceled_by_user");
    assertEquals(detached, ["4 canceled_by_user"]);
    assert(logged.some((m) => m.includes("Cancel")), logged.join("\n"));
    assertEquals(sessions.current(4), undefined);
    const again = await sessions.session(4);
    assert(again !== first);
    assertEquals(fake.attaches, 2);
  });
});

Deno.test("a closed tab is detached and forgotten; detachAll detaches every tab", async () => {
  await withBrowser({ 4: WEB, 5: WEB, 6: WEB }, {}, async (fake, sessions) => {
    const detached: string[] = [];
    sessions.onDetach((tabId, reason) => detached.push(`${tabId} ${reason}`));
    await Promise.all([sessions.session(4), sessions.session(5), sessions.session(6)]);
    fake.onRemoved.fire(4, { windowId: 1, isWindowClosing: false });
    await until(() => !fake.attached.has(4));
    assertEquals(detached, ["4 tab_closed"]);
    assertEquals(sessions.attachedTabs().sort(), [5, 6]);
    await sessions.detachAll();
    assertEquals(fake.attached.size, 0);
    assertEquals(detached.slice(1).sort(), ["5 hub_disconnected", "6 hub_disconnected"]);
  });
});
