/// <reference lib="deno.ns" />
import { assert, assertEquals } from "../../../../tests/helpers/assert.ts";
import { HubError } from "../../../../protocol/errors.ts";
import { fakeMethodContext, fakeStorageArea } from "../_test_fixtures.ts";
import type { CdpEvent, CdpParams, DebuggerSessions, TabSession } from "../debugger_sessions.ts";
import type { MethodContext } from "./browser_method.ts";
import { createKitContexts, NODE_GROUP, resolveNode } from "./debugger_nodes.ts";
import { createRefFrames } from "./ref_frames.ts";

const ORIGIN = "chrome-extension://hub-id";
const TAB = 7;

interface FakeContext {
  id: number;
  origin: string;
  type: "default" | "isolated";
  /** The kit registry token there, when the kit holds elements. */
  token?: string;
}

/**
 * A tab's debugger session over two sessions (the page's and an out-of-process child "C1"): each
 * Runtime.enable reports its contexts as events, and each kit context answers element `n` only
 * for its own token.
 */
function fakeDebugger(contexts: Record<string, FakeContext[]>) {
  const listeners = new Set<(event: CdpEvent) => void>();
  const detaches = new Set<(tabId: number, reason: string) => void>();
  const sent: { method: string; sessionId?: string; params?: CdpParams }[] = [];
  const emit = (method: string, params: CdpParams, sessionId?: string) => {
    for (const listener of listeners) listener({ tabId: TAB, sessionId, method, params });
  };
  const session: TabSession = {
    tabId: TAB,
    send<T>(method: string, params?: CdpParams, options?: { sessionId?: string }) {
      const sessionId = options?.sessionId;
      sent.push({ method, sessionId, params });
      const key = sessionId ?? "";
      if (method === "Runtime.enable") {
        for (const c of contexts[key] ?? []) {
          emit("Runtime.executionContextCreated", {
            context: { id: c.id, origin: c.origin, name: "x", auxData: { type: c.type } },
          }, sessionId);
        }
      }
      if (method === "Runtime.callFunctionOn") {
        const [, token, n] = (params!.arguments as { value: unknown }[]).map((a) => a.value);
        const context = (contexts[key] ?? []).find((c) => c.id === params!.executionContextId);
        const hit = context?.token === token && n === 5;
        return Promise.resolve(
          (hit
            ? { result: { type: "object", subtype: "node", objectId: `obj-${key}-${context!.id}` } }
            : { result: { type: "object", subtype: "null", value: null } }) as T,
        );
      }
      if (method === "DOM.describeNode") {
        return Promise.resolve({ node: { backendNodeId: 42 } } as T);
      }
      return Promise.resolve({} as T);
    },
    children: () => [{ sessionId: "C1", targetId: "T1", url: "http://localhost/x" }],
  };
  const sessions = {
    onEvent(listener: (event: CdpEvent) => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    onDetach(listener: (tabId: number, reason: string) => void) {
      detaches.add(listener);
      return () => detaches.delete(listener);
    },
  } as unknown as DebuggerSessions;
  return { session, sessions, sent, emit, detach: () => detaches.forEach((d) => d(TAB, "idle")) };
}

/** A method context whose frame table names `f1` a child document whose kit has `token`. */
async function contextWith(sessions: DebuggerSessions, token: string): Promise<MethodContext> {
  const { storage } = fakeStorageArea();
  const refFrames = createRefFrames(() => storage);
  await refFrames.schemeFor(TAB, 0, "TOP");
  await refFrames.recordDoc(TAB, 0, { token: "top-token", upTo: 9 });
  await refFrames.schemeFor(TAB, 3, "CHILD");
  await refFrames.recordDoc(TAB, 1, { token, upTo: 9 });
  return fakeMethodContext({ refFrames, sessions });
}

async function failure(promise: Promise<unknown>): Promise<HubError> {
  const error = await promise.then(() => undefined, (thrown) => thrown);
  assert(error instanceof HubError, `expected a HubError, got ${error}`);
  return error;
}

Deno.test("only this extension's isolated contexts are asked; the kit holding the token answers", async () => {
  const fake = fakeDebugger({
    "": [
      { id: 1, origin: "http://127.0.0.1", type: "default" },
      { id: 2, origin: ORIGIN, type: "isolated", token: "top-token" },
      { id: 3, origin: "chrome-extension://other", type: "isolated", token: "child-token" },
    ],
    C1: [
      { id: 1, origin: "http://localhost", type: "default" },
      { id: 4, origin: ORIGIN, type: "isolated", token: "child-token" },
    ],
  });
  const tracker = createKitContexts(fake.sessions, ORIGIN);
  const context = await contextWith(fake.sessions, "child-token");
  const node = await resolveNode(fake.session, TAB, { ref: "f1e5" }, context, "test", tracker);
  assertEquals(node, { sessionId: "C1", objectId: "obj-C1-4", backendNodeId: 42, ref: "f1e5" });
  const asked = fake.sent.filter((s) => s.method === "Runtime.callFunctionOn")
    .map((s) => [s.sessionId ?? "", s.params!.executionContextId, s.params!.objectGroup]);
  assertEquals(asked, [["", 2, NODE_GROUP], ["C1", 4, NODE_GROUP]]);
  assertEquals(
    fake.sent.find((s) => s.method === "DOM.describeNode"),
    { method: "DOM.describeNode", sessionId: "C1", params: { objectId: "obj-C1-4" } },
  );
  assertEquals(fake.sent.filter((s) => s.method === "Runtime.enable").length, 2);
});

Deno.test("a ref no kit holds any more is REF_STALE", async () => {
  const fake = fakeDebugger({ "": [{ id: 2, origin: ORIGIN, type: "isolated", token: "new" }] });
  const tracker = createKitContexts(fake.sessions, ORIGIN);
  const context = await contextWith(fake.sessions, "child-token");
  const error = await failure(
    resolveNode(fake.session, TAB, { ref: "e5" }, context, "test", tracker),
  );
  assertEquals(error.code, "REF_STALE");
  // A ref the frame table never held is stale before any command.
  const unknown = await failure(
    resolveNode(fake.session, TAB, { ref: "f9e5" }, context, "test", tracker),
  );
  assertEquals(unknown.code, "REF_STALE");
});

Deno.test("destroyed and cleared contexts are forgotten; a detach forgets the tab", async () => {
  const fake = fakeDebugger({
    "": [
      { id: 2, origin: ORIGIN, type: "isolated", token: "top-token" },
      { id: 6, origin: ORIGIN, type: "isolated" },
    ],
  });
  const tracker = createKitContexts(fake.sessions, ORIGIN);
  await tracker.ready(fake.session, undefined);
  assertEquals(tracker.of(TAB, undefined), [2, 6]);
  fake.emit("Runtime.executionContextDestroyed", { executionContextId: 2 });
  assertEquals(tracker.of(TAB, undefined), [6]);
  fake.emit("Runtime.executionContextsCleared", {});
  assertEquals(tracker.of(TAB, undefined), []);
  fake.emit("Runtime.executionContextCreated", {
    context: { id: 8, origin: ORIGIN, auxData: { type: "isolated" } },
  });
  assertEquals(tracker.of(TAB, undefined), [8]);
  fake.detach();
  assertEquals(tracker.of(TAB, undefined), []);
});
