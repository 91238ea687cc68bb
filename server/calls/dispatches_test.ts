/**
 * `createDispatches` over a fake link: what it sends, how progress, timeouts and aborts end the
 * wait, and how the extension's answers become values or call errors.
 */
import { HubError, hubError, MAX_ERROR_MESSAGE_CHARS, restStatus } from "../../protocol/errors.ts";
import { assert, assertEquals, assertMatch } from "../../tests/helpers/assert.ts";
import type { DispatchParams } from "../../protocol/events.ts";
import type { ExtensionRequests } from "./extension_requests.ts";
import { createDispatches, type DispatchTimeouts } from "./dispatches.ts";

interface Sent {
  method: string;
  params: DispatchParams;
  signal?: AbortSignal;
  answer(value: unknown): void;
  fail(error: unknown): void;
}

/** A link whose requests wait until the test answers them; an aborted request rejects. */
function fakeLink() {
  const sent: Sent[] = [];
  const link = {
    request(method: string, params: unknown, signal?: AbortSignal) {
      return new Promise((resolve, reject) => {
        sent.push({
          method,
          params: params as DispatchParams,
          signal,
          answer: resolve,
          fail: reject,
        });
        if (signal?.aborted) reject(signal.reason);
        signal?.addEventListener("abort", () => reject(signal.reason), { once: true });
      });
    },
  } as unknown as ExtensionRequests;
  return { link, sent };
}

const CALL = {
  tool: "demo__echo",
  kind: "plugin",
  plugin: "demo",
  input: { text: "hi" },
} as const;

function setup(options: DispatchTimeouts = {}) {
  const { link, sent } = fakeLink();
  return { dispatches: createDispatches(link, options), sent };
}

/** Lets the dispatches' `await link.request(...)` start. */
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));
const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function rejection(promise: Promise<unknown>): Promise<HubError> {
  try {
    await promise;
  } catch (error) {
    assert(error instanceof HubError, `expected a HubError, got ${error}`);
    return error;
  }
  throw new Error("the dispatch succeeded");
}

Deno.test("a dispatch sends tool.dispatch with a fresh id and returns the value and tab", async () => {
  const { dispatches, sent } = setup();
  const running = dispatches.dispatch(CALL);
  await tick();
  assertEquals(sent.length, 1);
  assertEquals(sent[0].method, "tool.dispatch");
  const { dispatchId, ...params } = sent[0].params;
  assertEquals(params, CALL);
  assertMatch(dispatchId, /^[0-9a-f-]{36}$/);
  assertEquals(dispatches.active(), 1);
  sent[0].answer({ ok: true, value: { echoed: "hi" }, tabId: 7 });
  assertEquals(await running, { value: { echoed: "hi" }, tabId: 7 });
  assertEquals(dispatches.active(), 0);
});

Deno.test("the caller's dispatch id is used; onReply hears the extension's well-formed answer", async () => {
  const { dispatches, sent } = setup();
  const replies: boolean[] = [];
  const onReply = (ok: boolean) => void replies.push(ok);
  const ok = dispatches.dispatch({ ...CALL, dispatchId: "call-1" }, { onReply });
  await tick();
  assertEquals(sent[0].params.dispatchId, "call-1");
  sent[0].answer({ ok: true, value: 1 });
  await ok;
  const refused = dispatches.dispatch(CALL, { onReply });
  await tick();
  sent[1].answer({
    ok: false,
    error: { code: "TAB_CLOSED", message: "gone", category: "unavailable", retryable: true },
  });
  await rejection(refused);
  const malformed = dispatches.dispatch(CALL, { onReply });
  await tick();
  sent[2].answer({ nonsense: true });
  await rejection(malformed);
  const lost = dispatches.dispatch(CALL, { onReply });
  await tick();
  sent[3].fail(hubError("EXTENSION_DISCONNECTED", "closed"));
  await rejection(lost);
  assertEquals(replies, [true, false], "malformed answers and lost links are not replies");
});

Deno.test("each progress report is passed on and restarts the timeout", async () => {
  const { dispatches, sent } = setup({ timeoutMs: 150 });
  const reports: unknown[] = [];
  const running = dispatches.dispatch(CALL, { onProgress: (p) => reports.push(p) });
  await tick();
  const { dispatchId } = sent[0].params;
  for (let i = 1; i <= 4; i++) {
    await delay(75); // 300 ms in all: twice the timeout, never 150 ms without news
    dispatches.progress({ dispatchId, progress: i, total: 4, message: `step ${i}` });
  }
  sent[0].answer({ ok: true, value: "done" });
  assertEquals((await running).value, "done");
  assertEquals(reports.length, 4);
  assertEquals(reports[3], { progress: 4, total: 4, message: "step 4" });
});

Deno.test("progress for a dispatch that is not running is ignored", () => {
  const { dispatches } = setup();
  dispatches.progress({ dispatchId: "gone", progress: 1 });
  assertEquals(dispatches.active(), 0);
});

Deno.test("no answer and no progress within the timeout is TIMEOUT, and the request is dropped", async () => {
  const { dispatches, sent } = setup({ timeoutMs: 30 });
  const error = await rejection(dispatches.dispatch(CALL));
  assertEquals([error.payload.code, restStatus(error)], ["TIMEOUT", 504]);
  assertMatch(error.message, /demo__echo did not answer within 0\.03 s\. The page may be busy/);
  assert(sent[0].signal?.aborted, "the link request was aborted");
  assertEquals(dispatches.active(), 0);
});

Deno.test("progress cannot extend a call past the maximum", async () => {
  const { dispatches, sent } = setup({ timeoutMs: 100, maxMs: 250 });
  const running = rejection(dispatches.dispatch(CALL));
  await tick();
  const { dispatchId } = sent[0].params;
  const keepAlive = setInterval(() => dispatches.progress({ dispatchId, progress: 1 }), 20);
  try {
    const error = await running;
    assertEquals(error.payload.code, "TIMEOUT");
    assertMatch(error.message, /demo__echo ran longer than the 0\.25 s maximum and was abandoned/);
  } finally {
    clearInterval(keepAlive);
  }
});

Deno.test("the caller giving up ends the call at once with CANCELLED", async () => {
  const { dispatches, sent } = setup();
  const controller = new AbortController();
  const running = rejection(dispatches.dispatch(CALL, { signal: controller.signal }));
  await tick();
  controller.abort();
  const error = await running;
  assertEquals(error.payload.code, "CANCELLED");
  assertEquals(error.message, "The caller cancelled demo__echo.");
  assert(sent[0].signal?.aborted);
  assertEquals(dispatches.active(), 0);
});

Deno.test("an abort reason that is a HubError is the call's error", async () => {
  const { dispatches } = setup();
  const controller = new AbortController();
  controller.abort(hubError("PERMISSION_DENIED", "Denied elsewhere."));
  const error = await rejection(dispatches.dispatch(CALL, { signal: controller.signal }));
  assertEquals([error.payload.code, error.message], ["PERMISSION_DENIED", "Denied elsewhere."]);
});

Deno.test("a link failure (the extension went away) is the call's error as it came", async () => {
  const { dispatches, sent } = setup();
  const running = rejection(dispatches.dispatch(CALL));
  await tick();
  sent[0].fail(hubError("EXTENSION_DISCONNECTED", "connection closed"));
  const error = await running;
  assertEquals([error.payload.code, restStatus(error)], ["EXTENSION_DISCONNECTED", 503]);
});

/** The HubError a dispatch answered with `result` fails with. */
async function answeredWith(result: unknown): Promise<HubError> {
  const { dispatches, sent } = setup();
  const running = rejection(dispatches.dispatch(CALL));
  await tick();
  sent[0].answer(result);
  return await running;
}

Deno.test("a hub code from the extension keeps its category and HTTP status", async () => {
  const error = await answeredWith({
    ok: false,
    error: {
      code: "TAB_CLOSED",
      message: "Tab 7 closed.",
      category: "unavailable",
      retryable: true,
    },
  });
  assertEquals([error.payload.code, error.fromTool, restStatus(error)], ["TAB_CLOSED", false, 503]);
});

Deno.test("a plugin's own error code is the tool's failure: 422", async () => {
  const payload = {
    code: "NOT_LOGGED_IN",
    message: "Sign in first.",
    category: "auth",
    retryable: false,
    details: { where: "header" },
  };
  const error = await answeredWith({ ok: false, error: payload });
  assertEquals([error.payload, error.fromTool, restStatus(error)], [payload, true, 422]);
});

Deno.test("a failure the page reports for the call (RESULT_TOO_LARGE) is the tool's: 422", async () => {
  for (const code of ["RESULT_TOO_LARGE", "PAGE_NOT_SCRIPTABLE", "ADAPTER_ERROR"]) {
    const error = await answeredWith({
      ok: false,
      error: { code, message: "m", category: "internal", retryable: false },
    });
    assertEquals([error.payload.code, restStatus(error)], [code, 422]);
  }
});

Deno.test("a malformed answer is EXTENSION_ERROR saying what was wrong", async () => {
  const error = await answeredWith({ ok: "yes" });
  assertEquals([error.payload.code, restStatus(error)], ["EXTENSION_ERROR", 502]);
  assertMatch(error.message, /^The extension sent a malformed result for demo__echo: /);
});

Deno.test("a success with no value, or a tab id past the safe integers, is EXTENSION_ERROR", async () => {
  for (
    const raw of [{ ok: true }, { ok: true, tabId: 4 }, { ok: true, value: 1, tabId: 2 ** 60 }]
  ) {
    const error = await answeredWith(raw);
    assertEquals(
      [error.payload.code, restStatus(error)],
      ["EXTENSION_ERROR", 502],
      JSON.stringify(raw),
    );
  }
});

Deno.test("an error message from the page is capped, with a note that it was cut", async () => {
  const error = await answeredWith({
    ok: false,
    error: {
      code: "PAGE_ERROR",
      message: "x".repeat(50_000),
      category: "internal",
      retryable: false,
    },
  });
  assert(error.message.length <= MAX_ERROR_MESSAGE_CHARS + 100, `${error.message.length} chars`);
  assert(error.message.length >= MAX_ERROR_MESSAGE_CHARS - 100);
  assertMatch(error.message, /The error message was cut\./);
  assertEquals(error.payload.message, error.message);
});
