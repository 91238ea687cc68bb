/// <reference lib="deno.ns" />
import { errorPayload, HubError } from "../../../protocol/errors.ts";
import { failureOf } from "./_test_fixtures.ts";
import { withTabs } from "./_test_fixtures.ts";
import { assert, assertEquals, assertMatch } from "../../../tests/helpers/assert.ts";
import { createTabCalls } from "./tab_calls.ts";

/** Work that ends only when the test says so. */
function controlled<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

Deno.test("run() returns the work's value and counts the call only while it runs", async () => {
  await withTabs(new Set([1]), async () => {
    const calls = createTabCalls();
    const work = controlled<string>();
    const running = calls.run(1, "the echo tool", () => work.promise);
    assertEquals(calls.running(1), 1);
    assertEquals(calls.running(2), 0);
    work.resolve("done");
    assertEquals(await running, "done");
    assertEquals(calls.running(1), 0);
  });
});

Deno.test("running() counts calls per tab", async () => {
  await withTabs(new Set([1, 2]), async () => {
    const calls = createTabCalls();
    const a = controlled<number>();
    const b = controlled<number>();
    const c = controlled<number>();
    const runs = [
      calls.run(1, "a", () => a.promise),
      calls.run(1, "b", () => b.promise),
      calls.run(2, "c", () => c.promise),
    ];
    assertEquals([calls.running(1), calls.running(2)], [2, 1]);
    a.resolve(1);
    await runs[0];
    assertEquals([calls.running(1), calls.running(2)], [1, 1]);
    b.resolve(2);
    c.resolve(3);
    assertEquals(await Promise.all(runs), [1, 2, 3]);
    assertEquals([calls.running(1), calls.running(2)], [0, 0]);
  });
});

Deno.test("closed() fails every running call in that tab with TAB_CLOSED, and only there", async () => {
  await withTabs(new Set([1, 2]), async () => {
    const calls = createTabCalls();
    const never = () => new Promise<never>(() => {});
    const first = calls.run(1, "a", never);
    const second = calls.run(1, "b", never);
    const other = controlled<string>();
    const elsewhere = calls.run(2, "c", () => other.promise);
    calls.closed(1);
    for (const failed of [await failureOf(first), await failureOf(second)]) {
      assertEquals(failed.payload.code, "TAB_CLOSED");
      assertEquals(failed.payload.category, "unavailable");
      assertEquals(failed.payload.retryable, true);
      assertMatch(failed.payload.message, /Tab 1 was closed/);
    }
    assertEquals(calls.running(1), 0);
    assertEquals(calls.running(2), 1);
    other.resolve("still fine");
    assertEquals(await elsewhere, "still fine");
    calls.closed(3); // a tab without calls: nothing happens
  });
});

Deno.test("navigated() fails running calls with TAB_NAVIGATED, naming the new URL", async () => {
  await withTabs(new Set([4]), async () => {
    const calls = createTabCalls();
    const pending = calls.run(4, "the slow tool", () => new Promise<never>(() => {}));
    calls.navigated(4, "http://127.0.0.1:8000/login");
    const failed = await failureOf(pending);
    assertEquals(failed.payload.code, "TAB_NAVIGATED");
    assertEquals(failed.payload.category, "unavailable");
    assertMatch(
      failed.payload.message,
      /Tab 4 navigated away \(to http:\/\/127\.0\.0\.1:8000\/login\)/,
    );
    assertEquals(calls.running(4), 0);

    const again = calls.run(4, "x", () => new Promise<never>(() => {}));
    calls.navigated(4);
    const second = await failureOf(again);
    assertEquals(second.payload.code, "TAB_NAVIGATED");
    assert(!second.payload.message.includes("(to"), second.payload.message);
  });
});

Deno.test("a work error while the tab still exists is EXTENSION_ERROR with the browser's words", async () => {
  await withTabs(new Set([5]), async () => {
    const calls = createTabCalls();
    const failed = await failureOf(
      calls.run(5, "the echo tool", () => Promise.reject(new Error("Frame 3 was removed"))),
    );
    assertEquals(failed.payload.code, "EXTENSION_ERROR");
    assertEquals(failed.payload.category, "internal");
    assertMatch(
      failed.payload.message,
      /could not run the echo tool in tab 5: Frame 3 was removed/,
    );
    assertEquals(calls.running(5), 0);
  });
});

Deno.test("a page closed to extensions (about:blank, chrome://) is PAGE_NOT_SCRIPTABLE", async () => {
  await withTabs(new Set([5]), async () => {
    const calls = createTabCalls();
    for (
      const words of [
        'Cannot access contents of url "about:blank". Extension manifest must request permission',
        "Cannot access a chrome:// URL",
        "The extensions gallery cannot be scripted.",
      ]
    ) {
      const failed = await failureOf(calls.run(5, "x", () => Promise.reject(new Error(words))));
      assertEquals([failed.payload.code, failed.payload.category], [
        "PAGE_NOT_SCRIPTABLE",
        "permission",
      ]);
      assertMatch(failed.payload.message, /use a tab with an http\(s\) page/);
    }
  });
});

Deno.test("a work error after the tab is gone is TAB_CLOSED", async () => {
  await withTabs(new Set(), async () => {
    const calls = createTabCalls();
    const failed = await failureOf(
      calls.run(6, "the echo tool", () => Promise.reject(new Error("No tab with id: 6"))),
    );
    assertEquals(failed.payload.code, "TAB_CLOSED");
    assertMatch(failed.payload.message, /Tab 6 was closed while the echo tool ran/);
  });
});

Deno.test("a HubError thrown by the work passes through unchanged", async () => {
  await withTabs(new Set([7]), async () => {
    const calls = createTabCalls();
    const own = new HubError({
      code: "TAB_NOT_FOUND",
      message: "mine",
      category: "not_found",
      retryable: false,
    });
    assertEquals(await failureOf(calls.run(7, "x", () => Promise.reject(own))), own);
  });
});

Deno.test("closed() after a call finished does not touch later calls", async () => {
  await withTabs(new Set([8]), async () => {
    const calls = createTabCalls();
    assertEquals(await calls.run(8, "x", () => Promise.resolve(1)), 1);
    calls.closed(8);
    assertEquals(await calls.run(8, "y", () => Promise.resolve(2)), 2);
  });
});

Deno.test("the work's signal aborts once run() gave up on it, and after it ended", async () => {
  await withTabs(new Set([1]), async () => {
    const calls = createTabCalls();
    let given: AbortSignal | undefined;
    const stuck = calls.run(1, "a", (signal) => {
      given = signal;
      return new Promise<never>(() => {});
    });
    assertEquals(given?.aborted, false);
    calls.navigated(1);
    assertEquals((await failureOf(stuck)).payload.code, "TAB_NAVIGATED");
    assertEquals(given?.aborted, true);
    let finished: AbortSignal | undefined;
    await calls.run(1, "b", (signal) => Promise.resolve(finished = signal));
    assertEquals(finished?.aborted, true);
  });
});

Deno.test("a call ended elsewhere fails with the hub's error and frees its tab; others run on", async () => {
  await withTabs(new Set([1]), async () => {
    const calls = createTabCalls();
    const ended = new AbortController();
    let workSignal: AbortSignal | undefined;
    const hung = calls.run(1, "a", (signal) => {
      workSignal = signal;
      return new Promise<never>(() => {});
    }, ended.signal);
    const other = controlled<string>();
    const next = calls.run(1, "b", () => other.promise);
    ended.abort(new HubError(errorPayload("TIMEOUT", "a did not answer within 30 s.")));
    const failure = await failureOf(hung);
    assertEquals(failure.payload.code, "TIMEOUT");
    assertEquals(failure.message, "a did not answer within 30 s.");
    assertEquals(workSignal?.aborted, true);
    assertEquals(calls.running(1), 1);
    other.resolve("b done");
    assertEquals(await next, "b done");
    assertEquals(calls.running(1), 0);
  });
});

Deno.test("a call already ended does not wait for its work; a plain abort is CANCELLED", async () => {
  await withTabs(new Set([1]), async () => {
    const calls = createTabCalls();
    const ended = new AbortController();
    ended.abort();
    const failure = await failureOf(calls.run(1, "a", () => new Promise(() => {}), ended.signal));
    assertEquals(failure.payload.code, "CANCELLED");
    assertEquals(calls.running(1), 0);
  });
});
