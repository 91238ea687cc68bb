import { assertEquals } from "../../tests/helpers/assert.ts";
import { abortableSleep, sendBatch } from "./sender.ts";

interface Seen {
  url: string;
  body: unknown;
  method?: string;
}

/** A fetch that answers from `answers` in turn (a number is a status; an Error is thrown). */
function fakeFetch(answers: (number | Error | "hang")[], seen: Seen[]): typeof fetch {
  let i = 0;
  return ((url: string, init: RequestInit) => {
    seen.push({ url, body: JSON.parse(init.body as string), method: init.method });
    const answer = answers[Math.min(i++, answers.length - 1)];
    if (answer === "hang") {
      return new Promise((_, reject) =>
        init.signal!.addEventListener("abort", () => reject(init.signal!.reason))
      );
    }
    if (answer instanceof Error) return Promise.reject(answer);
    return Promise.resolve(new Response("{}", { status: answer }));
  }) as typeof fetch;
}

const noSleep = (pauses: number[]) => (ms: number) => {
  pauses.push(ms);
  return Promise.resolve();
};

Deno.test("a batch is posted once as {events} when the endpoint takes it", async () => {
  const seen: Seen[] = [];
  const outcome = await sendBatch([{ event: "a" }], {
    endpoint: "http://127.0.0.1:1/e",
    fetch: fakeFetch([202], seen),
  });
  assertEquals(outcome, "sent");
  assertEquals(seen, [{
    url: "http://127.0.0.1:1/e",
    body: { events: [{ event: "a" }] },
    method: "POST",
  }]);
});

Deno.test("network errors and 5xx are retried with backoff, then the batch is given up", async () => {
  const seen: Seen[] = [];
  const pauses: number[] = [];
  const failures: string[] = [];
  const outcome = await sendBatch([1], {
    endpoint: "http://x/",
    fetch: fakeFetch([new TypeError("connection refused"), 503, 500], seen),
    backoffMs: [10, 20],
    sleep: noSleep(pauses),
    onFailure: (m) => failures.push(m),
  });
  assertEquals([outcome, seen.length, pauses], ["gave_up", 3, [10, 20]]);
  assertEquals(failures, [
    "connection refused",
    "the endpoint answered HTTP 503",
    "the endpoint answered HTTP 500",
  ]);
  const retried = await sendBatch([1], {
    endpoint: "http://x/",
    fetch: fakeFetch([429, 200], []),
    sleep: noSleep([]),
  });
  assertEquals(retried, "sent");
});

Deno.test("a 4xx answer is final: no retry", async () => {
  const seen: Seen[] = [];
  const outcome = await sendBatch([1], {
    endpoint: "http://x/",
    fetch: fakeFetch([400, 200], seen),
    sleep: noSleep([]),
  });
  assertEquals([outcome, seen.length], ["rejected", 1]);
});

Deno.test("each attempt has a timeout; a hanging endpoint is given up", async () => {
  const seen: Seen[] = [];
  const started = performance.now();
  const outcome = await sendBatch([1], {
    endpoint: "http://x/",
    fetch: fakeFetch(["hang"], seen),
    timeoutMs: 30,
    backoffMs: [1],
  });
  assertEquals([outcome, seen.length], ["gave_up", 2]);
  assertEquals(performance.now() - started < 2_000, true);
});

Deno.test("stopping aborts the request in flight and the pauses", async () => {
  const stop = new AbortController();
  const sending = sendBatch([1], {
    endpoint: "http://x/",
    fetch: fakeFetch(["hang"], []),
    timeoutMs: 60_000,
    signal: stop.signal,
  });
  setTimeout(() => stop.abort(), 10);
  assertEquals(await sending, "stopped");
  const sleeping = abortableSleep(60_000, stop.signal);
  assertEquals(await sleeping, undefined);
});

Deno.test("a redirect is never followed: the other host gets nothing, and it is final", async () => {
  let elsewhere = 0;
  const other = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    elsewhere++;
    await req.body?.cancel();
    return new Response(null, { status: 204 });
  });
  let asked = 0;
  const endpoint = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    asked++;
    await req.body?.cancel();
    const location = `http://127.0.0.1:${other.addr.port}/v1/events`;
    return new Response(null, { status: 307, headers: { location } });
  });
  const failures: string[] = [];
  try {
    const outcome = await sendBatch([{ event: "a" }], {
      endpoint: `http://127.0.0.1:${endpoint.addr.port}/v1/events`,
      sleep: noSleep([]),
      onFailure: (m) => failures.push(m),
    });
    assertEquals([outcome, asked, elsewhere], ["rejected", 1, 0]);
    assertEquals(failures.length, 1);
  } finally {
    await endpoint.shutdown();
    await other.shutdown();
  }
});
