/// <reference lib="deno.ns" />
/**
 * `createPluginDispatch` with a fake `chrome` (tabs and windows), store, tracker, injector and
 * door exchanges: which tab a plugin call runs in, what it says when there is none, and how a page
 * that lost its adapter is handled.
 */
import { assert, assertEquals, assertMatch } from "../../../tests/helpers/assert.ts";
import type { AdapterCall } from "../../../protocol/adapter.ts";
import type { DispatchParams, DispatchResult, SyncPlugin } from "../../../protocol/events.ts";
import { errorPayload, HubError } from "../../../protocol/errors.ts";
import { noTabMessage, notReadyMessage } from "../../../protocol/tab_readiness.ts";
import { failureOf, fakeDialogs, syncPlugin, withChrome } from "./_test_fixtures.ts";
import type { Injector } from "./injector.ts";
import type { DoorExchanges } from "./door_exchanges.ts";
import type { MaybeMissing } from "./door_state.ts";
import { createPluginDispatch } from "./plugin_dispatch.ts";
import { createPluginStore } from "./plugin_store.ts";
import { createTabCalls } from "./tab_calls.ts";
import { createCallEnds } from "./call_ends.ts";
import type { TabTracker } from "./tab_tracker.ts";
import type { DialogInfo, DialogWatch } from "./dialogs.ts";

const INSTANCES = { work: "https://work.tracker.test", home: "https://tracker.test/home" };

const tracker = (instances: Record<string, string> = {}): SyncPlugin =>
  syncPlugin("tracker", {
    displayName: "Tracker",
    urlPatterns: ["https://tracker.test/*", "https://*.tracker.test/*"],
    instances,
    settings: { mode: "fast" },
  });

interface FakeTab {
  id: number;
  url: string;
  ready?: boolean;
  active?: boolean;
  windowId?: number;
}

interface Options {
  plugins?: SyncPlugin[];
  tabs?: FakeTab[];
  /** What the page answers, per call; `missing` until the adapter is injected by default. */
  answer?: (tabId: number, request: AdapterCall, injected: boolean) => MaybeMissing;
  /** The page never answers (a handler that hangs). */
  hang?: boolean;
  /** The tabs' open dialogs (the gate). */
  dialogs?: DialogWatch;
}

/** Runs `body` with a plugin dispatch over fakes, and the records of what it did. */
async function withPluginDispatch(
  options: Options,
  body: (ctx: ReturnType<typeof parts>) => Promise<void>,
): Promise<void> {
  const ctx = parts(options);
  await withChrome({
    tabs: {
      query: () => {
        ctx.queries++;
        return Promise.resolve(ctx.tabs.map((t) => ({ windowId: 1, active: false, ...t })));
      },
      get: (tabId: number) => {
        const tab = ctx.tabs.find((t) => t.id === tabId);
        return tab ? Promise.resolve(tab) : Promise.reject(new Error(`No tab with id: ${tabId}.`));
      },
    },
    windows: { getLastFocused: () => Promise.resolve({ id: 1 }) },
  }, () => body(ctx));
}

function parts(options: Options) {
  const store = createPluginStore();
  store.replace(options.plugins ?? [tracker()]);
  const calls: { tabId: number; plugin: string; hash: string; request: AdapterCall }[] = [];
  /** The signal each page call got: it aborts when the worker lets go of the call. */
  const signals: (AbortSignal | undefined)[] = [];
  const injected: number[] = [];
  let epoch = 1;
  const ctx = {
    store,
    tabs: options.tabs ?? [],
    queries: 0,
    calls,
    injected,
    /** Something about tabs changed: cached choices are stale. */
    bump: () => epoch++,
    dispatch: undefined as unknown as ReturnType<typeof createPluginDispatch>,
    tabCalls: createTabCalls(),
    signals,
  };
  const tabTracker = {
    isReady: (tabId: number) => ctx.tabs.find((t) => t.id === tabId)?.ready ?? true,
    epoch: () => epoch,
  } as unknown as TabTracker;
  const injector = {
    ensure(tabId: number) {
      injected.push(tabId);
      return Promise.resolve(true);
    },
  } as unknown as Injector;
  const answer = options.answer ??
    ((_tabId, request) => ({ ok: true, value: { ran: request.tool } }) as MaybeMissing);
  const exchanges = {
    call(tabId: number, plugin: string, hash: string, request: AdapterCall, signal?: AbortSignal) {
      calls.push({ tabId, plugin, hash, request });
      signals.push(signal);
      if (options.hang) return new Promise<never>(() => {});
      return Promise.resolve().then(() => answer(tabId, request, injected.includes(tabId)));
    },
  } as unknown as DoorExchanges;
  ctx.dispatch = createPluginDispatch({
    store,
    injector,
    tracker: tabTracker,
    calls: ctx.tabCalls,
    exchanges,
    dialogs: options.dialogs,
  });
  return ctx;
}

function params(fields: Partial<DispatchParams> = {}): DispatchParams {
  return {
    dispatchId: "d1",
    tool: "tracker__list",
    kind: "plugin",
    plugin: "tracker",
    baseTool: "list",
    input: { q: 1 },
    ...fields,
  };
}

/** The tab a successful call ran in. */
function tabOf(result: DispatchResult): number | undefined {
  assert(result.ok, `expected a success, got ${JSON.stringify(result)}`);
  return result.tabId;
}

// --- no tab to run in ---

Deno.test("a plugin the extension does not know yet is TOOL_NOT_FOUND", async () => {
  await withPluginDispatch({ plugins: [] }, async ({ dispatch }) => {
    const failure = await failureOf(dispatch(params()));
    assertEquals(failure.payload.code, "TOOL_NOT_FOUND");
    assertEquals(failure.message, 'The extension does not know plugin "tracker" yet.');
  });
});

Deno.test("no tab of the plugin: TAB_CLOSED with the hub's words, naming what to open", async () => {
  const tabs = [{ id: 1, url: "https://elsewhere.test/" }];
  await withPluginDispatch({ tabs }, async ({ dispatch, calls }) => {
    const failure = await failureOf(dispatch(params()));
    assertEquals([failure.payload.code, failure.payload.category], ["TAB_CLOSED", "unavailable"]);
    assertEquals(failure.message, noTabMessage(tracker()));
    assertMatch(
      failure.message,
      /^No Tracker tab is open\. Open https:\/\/tracker\.test\/\* or https:\/\/\*\.tracker\.test\/\* in the browser/,
    );
    assertEquals(calls.length, 0);
  });
});

Deno.test("tabs open but none ready: TAB_UNAVAILABLE naming the tab's URL", async () => {
  const tabs = [{ id: 3, url: "https://tracker.test/a", ready: false }];
  await withPluginDispatch({ tabs }, async ({ dispatch }) => {
    const failure = await failureOf(dispatch(params()));
    assertEquals(failure.payload.code, "TAB_UNAVAILABLE");
    assertEquals(failure.message, notReadyMessage(tracker(), "https://tracker.test/a"));
    assertMatch(failure.message, /A Tracker tab is open \(https:\/\/tracker\.test\/a\)/);
  });
});

// --- picking the tab ---

Deno.test("the call runs in the best ready tab, with its input, settings and dispatch id", async () => {
  const tabs = [
    { id: 3, url: "https://tracker.test/a", ready: false, active: true },
    { id: 4, url: "https://tracker.test/b" },
    { id: 5, url: "https://tracker.test/c", active: true },
  ];
  await withPluginDispatch({ tabs }, async ({ dispatch, calls }) => {
    // The answer carries the origin of the page the plugin ran in (the audit, the content marker).
    assertEquals(await dispatch(params()), {
      ok: true,
      value: { ran: "list" },
      tabId: 5,
      origin: "https://tracker.test",
    });
    assertEquals(calls, [{
      tabId: 5,
      plugin: "tracker",
      hash: "abc",
      request: { tool: "list", input: { q: 1 }, dispatchId: "d1", settings: { mode: "fast" } },
    }]);
  });
});

Deno.test("the settings the hub sent win over the stored ones; the tool name falls back", async () => {
  const tabs = [{ id: 4, url: "https://tracker.test/b" }];
  await withPluginDispatch({ tabs }, async ({ dispatch, calls }) => {
    await dispatch(params({ baseTool: undefined, settings: { mode: "slow" } }));
    assertEquals(calls[0].request.tool, "list");
    assertEquals(calls[0].request.settings, { mode: "slow" });
  });
});

Deno.test("the chosen tab is remembered until tabs change", async () => {
  const tabs = [{ id: 4, url: "https://tracker.test/b" }];
  await withPluginDispatch({ tabs }, async (ctx) => {
    await ctx.dispatch(params());
    await ctx.dispatch(params());
    assertEquals(ctx.queries, 1);
    ctx.bump();
    await ctx.dispatch(params());
    assertEquals(ctx.queries, 2);
  });
});

Deno.test("an instance call runs only in that instance's tabs", async () => {
  const tabs = [
    { id: 4, url: "https://tracker.test/home/x", active: true },
    { id: 5, url: "https://work.tracker.test/y" },
  ];
  const plugins = [tracker(INSTANCES)];
  await withPluginDispatch({ plugins, tabs }, async ({ dispatch, calls }) => {
    const instance = { name: "work", url: INSTANCES.work };
    assertEquals(tabOf(await dispatch(params({ instance }))), 5);
    assertEquals(calls[0].request.instance, instance);
    const home = { name: "home", url: INSTANCES.home };
    assertEquals(tabOf(await dispatch(params({ instance: home }))), 4);
  });
});

Deno.test("no tab of the instance: TAB_CLOSED naming the instance and its URL", async () => {
  const tabs = [{ id: 4, url: "https://tracker.test/home/x" }];
  const plugins = [tracker(INSTANCES)];
  await withPluginDispatch({ plugins, tabs }, async ({ dispatch }) => {
    const failure = await failureOf(
      dispatch(params({ instance: { name: "work", url: INSTANCES.work } })),
    );
    assertEquals(failure.payload.code, "TAB_CLOSED");
    assertMatch(
      failure.message,
      /^No Tracker \(work\) tab is open\. Open https:\/\/work\.tracker\.test in the browser/,
    );
  });
});

// --- a requested tab ---

Deno.test("a requested tab is used as it is", async () => {
  const tabs = [{ id: 4, url: "https://tracker.test/b" }, { id: 9, url: "https://tracker.test/c" }];
  await withPluginDispatch({ tabs }, async (ctx) => {
    assertEquals(tabOf(await ctx.dispatch(params({ tabId: 9 }))), 9);
    assertEquals(ctx.queries, 0, "no tab query for a requested tab");
  });
});

Deno.test("a requested tab that is not open, or not the plugin's: TAB_NOT_FOUND as the hub says it", async () => {
  const tabs = [
    { id: 4, url: "https://elsewhere.test/" },
    { id: 5, url: "https://tracker.test/" },
    { id: 9, url: "https://work.tracker.test/x" },
  ];
  await withPluginDispatch({ plugins: [tracker(INSTANCES)], tabs }, async ({ dispatch }) => {
    const gone = await failureOf(dispatch(params({ tabId: 8 })));
    assertEquals(gone.payload.code, "TAB_NOT_FOUND");
    assertEquals(gone.payload.category, "not_found");
    assertEquals(
      gone.message,
      "Tab 8 is not a Tracker tab (valid tabIds: 5, 9). Call plugin_list_tabs for the current " +
        "ones, or omit tabId.",
    );
    const other = await failureOf(dispatch(params({ tabId: 4 })));
    assertEquals(other.payload.code, "TAB_NOT_FOUND");
    assertMatch(other.message, /^Tab 4 is not a Tracker tab \(valid tabIds: 5, 9\)/);
    assertMatch(other.message, /plugin_list_tabs/);
  });
});

Deno.test("a requested tab while no tab of the plugin is open: valid tabIds none open", async () => {
  await withPluginDispatch({ tabs: [{ id: 4, url: "https://elsewhere.test/" }] }, async (ctx) => {
    const error = await failureOf(ctx.dispatch(params({ tabId: 3 })));
    assertEquals(error.payload.code, "TAB_NOT_FOUND");
    assertMatch(error.message, /valid tabIds: none open/);
  });
});

Deno.test("a requested tab of another instance: INVALID_ARGUMENTS as the hub says it", async () => {
  const tabs = [{ id: 5, url: "https://tracker.test/home/board" }, {
    id: 9,
    url: "https://work.tracker.test/x",
  }, { id: 8, url: "https://tracker.test/elsewhere" }];
  await withPluginDispatch({ plugins: [tracker(INSTANCES)], tabs }, async ({ dispatch }) => {
    const instance = { name: "work", url: INSTANCES.work };
    const wrong = await failureOf(dispatch(params({ tabId: 5, instance })));
    assertEquals(wrong.payload.code, "INVALID_ARGUMENTS");
    assertEquals(wrong.payload.category, "validation");
    assertMatch(wrong.message, /^Tab 5 \(https:\/\/tracker\.test\/home\/board\) does not belong/);
    assertMatch(wrong.message, /instance "work" \(https:\/\/work\.tracker\.test\)/);
    assertEquals(tabOf(await dispatch(params({ tabId: 9, instance }))), 9);
    const home = { name: "home", url: INSTANCES.home };
    const none = await failureOf(dispatch(params({ tabId: 8, instance: home })));
    assertEquals(none.payload.code, "INVALID_ARGUMENTS", "a tab matching no instance is refused");
  });
});

// --- the adapter ---

Deno.test("a page that lost its adapter gets it injected again, then the call runs", async () => {
  const tabs = [{ id: 4, url: "https://tracker.test/b" }];
  const answer = (_tabId: number, _request: AdapterCall, injected: boolean): MaybeMissing =>
    injected ? { ok: true, value: "after injection" } : { missing: true };
  await withPluginDispatch({ tabs, answer }, async ({ dispatch, calls, injected }) => {
    assertEquals(await dispatch(params()), {
      ok: true,
      value: "after injection",
      tabId: 4,
      origin: "https://tracker.test",
    });
    assertEquals([calls.length, injected], [2, [4]]);
  });
});

Deno.test("an adapter that does not load is EXTENSION_ERROR saying so", async () => {
  const tabs = [{ id: 4, url: "https://tracker.test/b" }];
  const answer = (): MaybeMissing => ({ missing: true });
  await withPluginDispatch({ tabs, answer }, async ({ dispatch }) => {
    const failure = await failureOf(dispatch(params()));
    assertEquals([failure.payload.code, failure.payload.category], ["EXTENSION_ERROR", "internal"]);
    assertEquals(failure.message, "The Tracker adapter did not load in tab 4.");
  });
});

Deno.test("the tool's own error comes back as the envelope's error", async () => {
  const tabs = [{ id: 4, url: "https://tracker.test/b" }];
  const error = {
    code: "NOT_LOGGED_IN",
    message: "Sign in.",
    category: "auth" as const,
    retryable: false,
  };
  const answer = (): MaybeMissing => ({ ok: false, error });
  await withPluginDispatch({ tabs, answer }, async ({ dispatch }) => {
    assertEquals(await dispatch(params()), { ok: false, error });
  });
});

Deno.test("a plugin turned off or rebuilt before the adapter is injected again: no injection, no second run", async () => {
  const tabs = [{ id: 4, url: "https://tracker.test/b" }];
  const cases: [Partial<SyncPlugin>, string][] = [
    [{ enabled: false }, "PERMISSION_OFF"],
    [{ adapterHash: "newer" }, "TAB_UNAVAILABLE"],
  ];
  for (const [change, code] of cases) {
    let store!: ReturnType<typeof createPluginStore>;
    const answer = (): MaybeMissing => {
      store.set({ ...tracker(), ...change }); // it changed while the call went to the page
      return { missing: true };
    };
    await withPluginDispatch({ tabs, answer }, async (ctx) => {
      store = ctx.store;
      const failure = await failureOf(ctx.dispatch(params()));
      assertEquals(failure.payload.code, code);
      assertMatch(failure.message, /did not run/);
      assertEquals([ctx.calls.length, ctx.injected], [1, []]);
    });
  }
});

Deno.test("a call whose door closed while it ran fails as it is: never injected again nor re-run", async () => {
  const tabs = [{ id: 4, url: "https://tracker.test/b" }];
  const closed = new HubError(errorPayload("ADAPTER_ERROR", "closed while the call ran"));
  const answer = (): MaybeMissing => {
    throw closed;
  };
  await withPluginDispatch({ tabs, answer }, async ({ dispatch, calls, injected }) => {
    const failure = await failureOf(dispatch(params()));
    assertEquals(failure.payload.code, "ADAPTER_ERROR");
    assertEquals([calls.length, injected], [1, []]);
  });
});

/**
 * Runs `check` on a call (id `d1`, tab 4) whose page never answers, once it has started; `failed`
 * is what the call is rejected with.
 */
async function withHangingCall(
  check: (
    ctx: ReturnType<typeof parts>,
    ends: ReturnType<typeof createCallEnds>,
    failed: Promise<unknown>,
  ) => Promise<void>,
): Promise<void> {
  await withPluginDispatch(
    { hang: true, tabs: [{ id: 4, url: "https://tracker.test/a" }] },
    async (ctx) => {
      const ends = createCallEnds();
      const running = ctx.dispatch(params(), ends.start("d1"));
      await new Promise((resolve) => setTimeout(resolve, 0));
      await check(ctx, ends, running.then(() => undefined, (e) => e));
    },
  );
}

Deno.test("a call the hub ended frees its tab at once and lets go of the page call", async () => {
  await withHangingCall(async (ctx, ends, failed) => {
    assertEquals(ctx.tabCalls.running(4), 1);
    ends.ended("d1", errorPayload("TIMEOUT", "tracker__list did not answer within 30 s."));
    const error = await failed;
    assert(error instanceof HubError);
    assertEquals(error.payload.code, "TIMEOUT");
    assertEquals(ctx.tabCalls.running(4), 0);
    assertEquals(ctx.signals[0]?.aborted, true);
    assertEquals(ends.running(), 0);
  });
});

Deno.test("a closed link ends the calls it carried, freeing their tabs", async () => {
  await withHangingCall(async (ctx, ends, failed) => {
    ends.linkClosed();
    const error = await failed;
    assertEquals((error as HubError).payload.code, "EXTENSION_DISCONNECTED");
    assertEquals(ctx.tabCalls.running(4), 0);
    assertEquals(ctx.signals[0]?.aborted, true);
  });
});

// --- dialogs ---

const ALERT: DialogInfo = { type: "alert", message: "Saved" };

Deno.test("a plugin call on a tab with a dialog open answers DIALOG_OPEN at once, never reaching the page", async () => {
  const dialogs = fakeDialogs();
  const tabs = [{ id: 4, url: "https://tracker.test/a" }, { id: 5, url: "https://tracker.test/b" }];
  await withPluginDispatch({ tabs, dialogs: dialogs.watch }, async ({ dispatch, calls }) => {
    dialogs.show(4, ALERT);
    const failure = await failureOf(dispatch(params({ tabId: 4 })));
    assertEquals(failure.payload.code, "DIALOG_OPEN");
    assertEquals(failure.payload.details, { tabId: 4, dialog: ALERT });
    assertMatch(failure.message, /browser_handle_dialog with tabId 4/);
    assertEquals(calls.length, 0);
    // Another tab's dialog changes nothing.
    assertEquals(await dispatch(params({ tabId: 5 })), {
      ok: true,
      value: { ran: "list" },
      tabId: 5,
      origin: "https://tracker.test",
    });
  });
});

Deno.test("a dialog that opens in the plugin call's tab while it runs fails it and lets go of the page call", async () => {
  const dialogs = fakeDialogs();
  const tabs = [{ id: 4, url: "https://tracker.test/a" }];
  await withPluginDispatch({ hang: true, tabs, dialogs: dialogs.watch }, async (ctx) => {
    const running = ctx.dispatch(params()).then(() => undefined, (e) => e);
    await new Promise((resolve) => setTimeout(resolve, 0));
    assertEquals(ctx.tabCalls.running(4), 1);
    dialogs.show(3, ALERT); // another tab: nothing happens
    dialogs.show(4, ALERT);
    const error = await running;
    assert(error instanceof HubError);
    assertEquals(error.payload.code, "DIALOG_OPEN");
    assertEquals(ctx.tabCalls.running(4), 0);
    assertEquals(ctx.signals[0]?.aborted, true);
  });
});
