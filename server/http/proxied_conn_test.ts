import { assert, assertEquals } from "../../tests/helpers/assert.ts";
import { proxyConnection } from "./proxied_conn.ts";
import { closeWriteQuietly } from "./conn_io.ts";

/** A connection whose reads are answered by hand and whose closeWrite rejects once it is closed. */
class FakeConn {
  closed = false;
  written: Uint8Array[] = [];
  #reads: ((n: number | null) => void)[] = [];
  #queued: (Uint8Array | null)[] = [];
  read(buffer: Uint8Array): Promise<number | null> {
    const next = this.#queued.shift();
    if (next !== undefined) return Promise.resolve(copy(next, buffer));
    return new Promise((resolve) => this.#reads.push((n) => resolve(n)));
  }
  /** Delivers bytes (or the end, null) to the next read. */
  deliver(chunk: Uint8Array | null, buffer?: Uint8Array): void {
    const reader = this.#reads.shift();
    if (reader) reader(chunk === null ? null : chunk.length);
    else this.#queued.push(chunk);
    void buffer;
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
    await new Promise((r) => setTimeout(r, 10));
    assertEquals(unhandled, [], "no promise rejection escaped");
    assertEquals(closes, ["evicted"]);
    assert(client.closed && upstream.closed);
  } finally {
    globalThis.removeEventListener("unhandledrejection", onUnhandled);
  }
});
