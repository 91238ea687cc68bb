import { assert, assertEquals } from "../../tests/helpers/assert.ts";
import { proxyConnection } from "./proxied_conn.ts";
import { closeWriteQuietly } from "./conn_io.ts";
import { concatBytes } from "../../protocol/bytes.ts";

/** A connection whose reads are answered by hand and whose closeWrite rejects once it is closed. */
class FakeConn {
  closed = false;
  written: Uint8Array[] = [];
  /** The size of the buffer of each read. */
  readSizes: number[] = [];
  #reads: ((chunk: Uint8Array | null) => void)[] = [];
  #queued: (Uint8Array | null)[] = [];
  read(buffer: Uint8Array): Promise<number | null> {
    this.readSizes.push(buffer.length);
    const next = this.#queued.shift();
    if (next !== undefined) return Promise.resolve(copy(next, buffer));
    return new Promise((resolve) => this.#reads.push((chunk) => resolve(copy(chunk, buffer))));
  }
  /** Delivers bytes (or the end, null) to the next read. */
  deliver(chunk: Uint8Array | null): void {
    const reader = this.#reads.shift();
    if (reader) reader(chunk);
    else this.#queued.push(chunk);
  }
  write(bytes: Uint8Array): Promise<number> {
    if (this.closed) return Promise.reject(new Error("closed"));
    this.written.push(bytes.slice());
    return Promise.resolve(bytes.length);
  }
  closeWrite(): Promise<void> {
    return this.closed
      ? Promise.reject(new Deno.errors.BadResource("Bad resource ID"))
      : Promise.resolve();
  }
  close(): void {
    this.closed = true;
  }
}

function copy(chunk: Uint8Array | null, buffer: Uint8Array): number | null {
  if (chunk === null) return null;
  buffer.set(chunk);
  return chunk.length;
}

Deno.test("closeWriteQuietly turns a rejected or thrown closeWrite into a callback, never a rejection", async () => {
  const failures: string[] = [];
  const rejecting = { closeWrite: () => Promise.reject(new Error("gone")) } as unknown as Deno.Conn;
  const throwing = {
    closeWrite: () => {
      throw new Error("gone");
    },
  } as unknown as Deno.Conn;
  closeWriteQuietly(rejecting, () => failures.push("rejected"));
  closeWriteQuietly(throwing, () => failures.push("thrown"));
  await new Promise((r) => setTimeout(r, 0));
  assertEquals(failures.sort(), ["rejected", "thrown"]);
});

Deno.test("an eviction followed by the client's end in the same turn neither throws nor rejects", async () => {
  const client = new FakeConn();
  const upstream = new FakeConn();
  const closes: (string | undefined)[] = [];
  const conn = proxyConnection(client as unknown as Deno.Conn, {
    connectUpstream: () => Promise.resolve(upstream as unknown as Deno.Conn),
    maxWsMessageBytes: 1024,
    onClose: (_, reason) => closes.push(reason),
  });
  const unhandled: unknown[] = [];
  const onUnhandled = (e: PromiseRejectionEvent) => {
    unhandled.push(e.reason);
    e.preventDefault();
  };
  globalThis.addEventListener("unhandledrejection", onUnhandled);
  try {
    const running = conn.run();
    client.deliver(new TextEncoder().encode("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"));
    await new Promise((r) => setTimeout(r, 10));
    assertEquals(upstream.written.length, 1, "the request was relayed");
    conn.close("evicted"); // the guard evicts it …
    client.deliver(null); // … while the client's end is already on its way
    await running;
    upstream.deliver(null); // the server closes its side
    await new Promise((r) => setTimeout(r, 10));
    assertEquals(unhandled, [], "no promise rejection escaped");
    assertEquals(closes, ["evicted"]);
    assert(client.closed && upstream.closed);
  } finally {
    globalThis.removeEventListener("unhandledrejection", onUnhandled);
  }
});

const HEALTH = new TextEncoder().encode("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");

function proxied(client: FakeConn, connectUpstream: () => Promise<FakeConn>) {
  const closes: (string | undefined)[] = [];
  const conn = proxyConnection(client as unknown as Deno.Conn, {
    connectUpstream: () => connectUpstream() as unknown as Promise<Deno.Conn>,
    maxWsMessageBytes: 1024,
    onClose: (_, reason) => closes.push(reason),
  });
  return { conn, closes };
}

Deno.test("a closed connection stays counted (closing) until the server has closed its side", async () => {
  const client = new FakeConn();
  const upstream = new FakeConn();
  const { conn, closes } = proxied(client, () => Promise.resolve(upstream));
  const running = conn.run();
  client.deliver(HEALTH);
  await new Promise((r) => setTimeout(r, 10));
  conn.close("evicted");
  client.deliver(null);
  await running;
  await new Promise((r) => setTimeout(r, 10));
  assert(client.closed, "the client's descriptor is freed at once");
  assert(conn.closing && !upstream.closed, "ours towards the server waits for the server's end");
  assertEquals(closes, [], "still in the table");
  upstream.deliver(null);
  await new Promise((r) => setTimeout(r, 10));
  assert(upstream.closed);
  assertEquals(closes, ["evicted"]);
});

Deno.test("a complete head no longer counts as a slow one while the upgrade answer is awaited", async () => {
  const client = new FakeConn();
  const upstream = new FakeConn();
  const { conn } = proxied(client, () => Promise.resolve(upstream));
  const running = conn.run();
  assert(conn.headSince !== undefined, "a new connection owes its head");
  client.deliver(
    new TextEncoder().encode(
      "GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
    ),
  );
  await new Promise((r) => setTimeout(r, 10));
  assertEquals(
    upstream.written.length,
    1,
    "the upgrade request was relayed; its answer is pending",
  );
  assertEquals(conn.headSince, undefined, "the head is complete");
  upstream.deliver(new TextEncoder().encode("HTTP/1.1 101 Switching Protocols\r\n\r\n"));
  await new Promise((r) => setTimeout(r, 10));
  assert(conn.upgraded);
  conn.close();
  client.deliver(null);
  upstream.deliver(null);
  await running;
});

Deno.test("when the server cannot be reached, the client gets a 503 that says to retry", async () => {
  const client = new FakeConn();
  const { conn, closes } = proxied(
    client,
    () => Promise.reject(new Error("the internal HTTP server is restarting")),
  );
  const running = conn.run();
  client.deliver(HEALTH);
  await new Promise((r) => setTimeout(r, 10));
  const answer = new TextDecoder().decode(client.written[0]);
  assert(answer.startsWith("HTTP/1.1 503 "), answer);
  assert(/retry-after: 1\r\n/i.test(answer), answer);
  assert(answer.includes('"SERVER_RESTARTING"'), answer);
  client.deliver(null); // the client reads the answer and ends
  await running;
  assertEquals(closes.length, 1);
  assert(closes[0]?.includes("restarting"), closes[0]);
});

/** Relays one request, then answers it with `chunks` from the server; returns the fake ends. */
async function answerWith(chunks: Uint8Array[], authorization?: string) {
  const client = new FakeConn();
  const upstream = new FakeConn();
  const conn = proxyConnection(client as unknown as Deno.Conn, {
    connectUpstream: () => Promise.resolve(upstream as unknown as Deno.Conn),
    maxWsMessageBytes: 1024,
    isTrusted: (auth) => auth === "Bearer s3cret",
    onClose: () => {},
  });
  const running = conn.run();
  const auth = authorization ? `Authorization: ${authorization}\r\n` : "";
  client.deliver(new TextEncoder().encode(`GET /tools HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth}\r\n`));
  await new Promise((r) => setTimeout(r, 5));
  for (const chunk of chunks) {
    upstream.deliver(chunk);
    await new Promise((r) => setTimeout(r, 1));
  }
  conn.close();
  client.deliver(null);
  await running;
  upstream.deliver(null);
  await new Promise((r) => setTimeout(r, 1));
  return { client, upstream };
}

const filled = (size: number, byte: number) => new Uint8Array(size).fill(byte);

Deno.test("a large answer to a client that showed the secret is read in large pieces, intact", async () => {
  const chunks = [filled(16 * 1024, 1), filled(200 * 1024, 2), filled(100, 3), filled(10, 4)];
  const { client, upstream } = await answerWith(chunks, "Bearer s3cret");
  const k = 1024;
  // A full small read switches to the large buffer; a read that fits the small one switches back.
  assertEquals(upstream.readSizes.slice(0, 5), [16 * k, 256 * k, 256 * k, 16 * k, 16 * k]);
  const relayed = concatBytes(client.written);
  assertEquals(relayed.length, chunks.reduce((n, c) => n + c.length, 0));
  assertEquals([relayed[0], relayed[16 * k], relayed[216 * k], relayed[216 * k + 100]], [
    1,
    2,
    3,
    4,
  ]);
});

Deno.test("a stranger's answers are always read with the small buffer", async () => {
  const { upstream } = await answerWith([filled(16 * 1024, 1), filled(16 * 1024, 2)]);
  assertEquals(
    upstream.readSizes.every((size) => size === 16 * 1024),
    true,
    `${upstream.readSizes}`,
  );
});
