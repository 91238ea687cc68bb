import { assert, assertEquals, assertMatch } from "../../tests/helpers/assert.ts";
import { createRequestScan, MAX_REQUEST_HEAD_BYTES } from "./request_scan.ts";

const enc = (text: string) => new TextEncoder().encode(text);

/** Pushes `text` in pieces of `size` bytes; returns the last step. */
function pushAll(scan: ReturnType<typeof createRequestScan>, text: string, size = 1e9) {
  const bytes = enc(text);
  let step = { forward: 0 } as ReturnType<typeof scan.push>;
  for (let i = 0; i < bytes.length; i += size) {
    step = scan.push(bytes.subarray(i, i + size));
    if (step.error || step.awaitUpgrade) return step;
  }
  return step;
}

const GET = "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";

Deno.test("the head clock runs until the head is complete, and again only once a next head begins", () => {
  for (const size of [1, 3, 1000]) {
    const scan = createRequestScan(1000);
    assert(scan.headPending, "a fresh connection owes a head");
    pushAll(scan, GET.slice(0, 20), size);
    assert(scan.headPending);
    pushAll(scan, GET.slice(20), size);
    assert(!scan.headPending, "complete head, keep-alive idle");
    pushAll(scan, "GE", size);
    assert(scan.headPending, "a second head has begun");
  }
});

Deno.test("bodies by Content-Length and by chunks are skipped, whatever they contain", () => {
  const body = GET + GET; // looks like requests, is a body
  const post = `POST /x HTTP/1.1\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
  const chunked = "POST /x HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n" +
    `${body.length.toString(16)};ext=1\r\n${body}\r\n5\r\nhello\r\n0\r\nX-Trailer: 1\r\n\r\n`;
  for (const request of [post, chunked]) {
    for (const size of [1, 5, 100_000]) {
      const scan = createRequestScan(1000);
      const step = pushAll(scan, request, size);
      assertEquals(step.error, undefined);
      assert(!scan.headPending, "the body was not taken for heads");
      const upgrade = pushAll(scan, "GET /ws HTTP/1.1\r\nUpgrade: websocket\r\n\r\n");
      assertMatch(upgrade.error ?? "", /first request/, "the next request is seen as a request");
    }
  }
});

Deno.test("an upgrade request holds what follows until the server answers", () => {
  const scan = createRequestScan(10);
  const head = "GET /ws HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n";
  const bytes = new Uint8Array([...enc(head), 0x82, 0x80 | 100, 1, 2, 3, 4]);
  const step = scan.push(bytes);
  assertEquals(step, { forward: head.length, awaitUpgrade: true });
  scan.answerUpgrade(101);
  assert(scan.upgraded);
  assertMatch(scan.push(bytes.subarray(step.forward)).error ?? "", /over the limit of 10 bytes/);
  // a refused upgrade leaves plain HTTP
  const refused = createRequestScan(10);
  refused.push(enc(head));
  refused.answerUpgrade(401);
  assert(!refused.upgraded);
  assertEquals(refused.push(enc(GET)).error, undefined);
});

Deno.test("what the scan cannot follow exactly closes the connection", () => {
  const cases: [string, RegExp][] = [
    ["POST / HTTP/1.1\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n", /both/],
    ["POST / HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n", /other than chunked/],
    ["POST / HTTP/1.1\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n", /Content-Length/],
    ["POST / HTTP/1.1\r\nContent-Length: +2\r\n\r\n", /Content-Length/],
    ["PRI * HTTP/2.0\r\n\r\n", /HTTP\/1/],
    ["POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", /chunk size/],
    ["POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n1\r\naXX", /CRLF/],
    ["GET /ws HTTP/1.1\r\nUpgrade: websocket\r\nContent-Length: 3\r\n\r\n", /body/],
    [GET + "GET /ws HTTP/1.1\r\nUpgrade: websocket\r\n\r\n", /first request/],
    [`GET / HTTP/1.1\r\nX: ${"a".repeat(MAX_REQUEST_HEAD_BYTES)}`, /head over/],
  ];
  for (const [text, pattern] of cases) {
    assertMatch(pushAll(createRequestScan(1000), text).error ?? "", pattern, JSON.stringify(text));
  }
});

Deno.test("empty lines before a request and bare LF line ends are read as the server reads them", () => {
  const scan = createRequestScan(1000);
  assertEquals(pushAll(scan, "\r\n\r\nGET / HTTP/1.1\nHost: x\n\n").error, undefined);
  assert(!scan.headPending);
  assertMatch(
    pushAll(scan, "GET /ws HTTP/1.1\nUpgrade: websocket\n\n").error ?? "",
    /first request/,
  );
});

Deno.test("a refused request forwards the complete requests before it in the same chunk", () => {
  const bad = "POST / HTTP/1.1\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n";
  const step = createRequestScan(1000).push(enc(GET + bad));
  assertMatch(step.error ?? "", /Content-Length/);
  assertEquals(step.forward, enc(GET).length);
  const alone = createRequestScan(1000).push(enc(bad));
  assertEquals(alone.forward, 0);
});

Deno.test("only Upgrade: websocket is held as an upgrade; h2c and others pass as plain requests", () => {
  const h2c = "GET / HTTP/1.1\r\nUpgrade: h2c\r\nConnection: Upgrade\r\n\r\n";
  const scan = createRequestScan(1000);
  assertEquals(pushAll(scan, h2c + GET), { forward: enc(h2c + GET).length });
  const ws = createRequestScan(1000);
  assertEquals(
    pushAll(ws, "GET /ws HTTP/1.1\r\nUpgrade: foo, WebSocket\r\n\r\n").awaitUpgrade,
    true,
  );
});

Deno.test("every complete head is handed over with the headers that can carry the secret", () => {
  const seen: [string | undefined, string | undefined][] = [];
  const scan = createRequestScan(1000, (h) => seen.push([h.authorization, h.wsProtocol]));
  const post = "POST /x HTTP/1.1\r\nAuthorization: Bearer abc\r\nContent-Length: 4\r\n\r\nBODY";
  pushAll(scan, GET + post, 3);
  assertEquals(seen, [[undefined, undefined], ["Bearer abc", undefined]]);
  const upgrade = createRequestScan(1000, (h) => seen.push([h.authorization, h.wsProtocol]));
  pushAll(
    upgrade,
    "GET /ws HTTP/1.1\r\nUpgrade: websocket\r\nSec-WebSocket-Protocol: hub, s\r\n\r\n",
  );
  assertEquals(seen[2], [undefined, "hub, s"]);
});
