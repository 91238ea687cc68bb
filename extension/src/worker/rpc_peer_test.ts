/// <reference lib="deno.ns" />
/**
 * The extension's set-up of the engine: its name, batches, console logging and the real reply
 * limit. How the engine judges and answers messages is tested in protocol/rpc_engine_test.ts.
 */
import { assert, assertEquals, assertMatch, assertRejects } from "../../../tests/helpers/assert.ts";
import { frame } from "../../../tests/helpers/rpc_end.ts";
import { MAX_RESULT_BYTES } from "../../../protocol/call_contract.ts";
import { createRpcPeer, type OversizeAnswer, type ServerHandlers } from "./rpc_peer.ts";

/** A peer whose `send` records frames; `next()` waits for the next one. */
function fakeLink(handlers: ServerHandlers, oversize?: OversizeAnswer) {
  const frames: Record<string, unknown>[] = [];
  const waiters: (() => void)[] = [];
  const peer = createRpcPeer(
    (text) => {
      frames.push(JSON.parse(text));
      waiters.shift()?.();
    },
    handlers,
    oversize,
  );
  let read = 0;
  async function next(): Promise<Record<string, unknown>> {
    while (frames.length <= read) await new Promise<void>((resolve) => waiters.push(resolve));
    return frames[read++];
  }
  /** Lets queued handler work run, so "nothing was sent" is a real observation. */
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
  return { peer, frames, next, settle };
}

/** Runs `body` with console.warn captured (the peer warns about bad notifications). */
async function withWarnings(body: (warnings: string[]) => Promise<void>) {
  const original = console.warn;
  const warnings: string[] = [];
  console.warn = (...args: unknown[]) => void warnings.push(args.map(String).join(" "));
  try {
    await body(warnings);
  } finally {
    console.warn = original;
  }
}

Deno.test("a request method sent as a notification is refused without running (logged, no id to answer)", async () => {
  await withWarnings(async (warnings) => {
    let called = 0;
    const { peer, frames, settle } = fakeLink({
      "plugin.uninstall": () => {
        called++;
        return { ok: true };
      },
    });
    peer.receive(frame({ method: "plugin.uninstall", params: { plugin: "test-app" } }));
    await settle();
    assertEquals(called, 0);
    // A notification has no id to answer, so the refusal is only logged.
    assertEquals(frames, []);
    assertEquals(warnings.length, 1);
    assertMatch(warnings[0], /^hub: .*Unknown notification "plugin\.uninstall".*is a request/);
  });
});

Deno.test("a throwing notification handler is logged and the link keeps working", async () => {
  await withWarnings(async (warnings) => {
    const { peer, next, settle } = fakeLink({
      "plugins.changed": () => {
        throw new Error("handler broke");
      },
      "plugin.uninstall": () => ({ ok: true }),
    });
    peer.receive(frame({ method: "plugins.changed", params: { reason: "reload" } }));
    await settle();
    assert(warnings.some((w) => w.includes("plugins.changed failed")), warnings.join("\n"));
    peer.receive(frame({ id: 1, method: "plugin.uninstall", params: { plugin: "p" } }));
    assertEquals(await next(), { jsonrpc: "2.0", id: 1, result: { ok: true } });
  });
});

Deno.test("the peer names the extension in refusals and takes the hub's batches", async () => {
  const seen: string[] = [];
  const { peer, next } = fakeLink({ "plugins.changed": ({ reason }) => void seen.push(reason) });
  peer.receive(JSON.stringify([
    { jsonrpc: "2.0", method: "plugins.changed", params: { reason: "reload" } },
    { jsonrpc: "2.0", id: 8, method: "plugin.uninstall", params: { plugin: "x" } },
  ]));
  assertEquals(await next(), {
    jsonrpc: "2.0",
    id: 8,
    error: {
      code: -32601,
      message: "plugin.uninstall is not available in this version of the hub extension.",
    },
  });
  assertEquals(seen, ["reload"]);
});

Deno.test("request() rejects at once when send throws", async () => {
  const peer = createRpcPeer(() => {
    throw new Error("socket is closed");
  }, {});
  await assertRejects(peer.request("plugin.remove", { name: "x" }), /socket is closed/);
});

Deno.test("an answer too large for one frame is replaced by the oversize answer, or an error", async () => {
  const huge = "x".repeat(MAX_RESULT_BYTES);
  const handlers: ServerHandlers = { "plugin.uninstall": () => ({ ok: true, huge }) };
  const request = frame({ id: 1, method: "plugin.uninstall", params: { plugin: "x" } });

  const seen: [string, number][] = [];
  const replaced = fakeLink(handlers, (method, bytes) => {
    seen.push([method, bytes]);
    return { ok: false };
  });
  replaced.peer.receive(request);
  assertEquals((await replaced.next()).result, { ok: false });
  assertEquals(seen[0][0], "plugin.uninstall");
  assert(seen[0][1] > MAX_RESULT_BYTES);

  const plain = fakeLink(handlers);
  plain.peer.receive(request);
  const reply = await plain.next();
  assertEquals((reply.error as { code: number }).code, -32603);
  assertMatch((reply.error as { message: string }).message, /plugin\.uninstall.*limit/);
});
