/// <reference lib="deno.ns" />
/**
 * domCall's refs: where a call with `ref` or `frame` runs, the scheme the kit writes refs by, and
 * what a stale ref answers, against a fake tab whose documents each hold a real kit (createDomKit)
 * with ops that hand out and resolve refs.
 */
import { assertEquals, assertMatch } from "../../../../tests/helpers/assert.ts";
import { failureOf, fakeMethodContext, withChrome } from "../_test_fixtures.ts";
import { createDomKit } from "../../page/dom_kit.ts";
import { elementOfRef } from "../../page/dom_find.ts";
import { DOM_KIT_GLOBAL, type KitState } from "../../page/dom_kit_types.ts";
import type { KitRef } from "../../page/dom_refs.ts";
import { parsedInput } from "./_parsed_input.ts";
import { domCall } from "./dom_call.ts";
import { goneError, placeCall } from "./call_place.ts";
import type { HubError } from "../../../../protocol/errors.ts";
import type { FrameLookups } from "./frame_target.ts";

const TAB = { id: 7, url: "http://127.0.0.1/refs", windowId: 1 };

/** A fake element: its name, and whether it is still in its document. */
interface Item {
  name: string;
  isConnected: boolean;
}

interface FakeDoc {
  id: string;
  frameId: number;
  items: Item[];
  kit?: ReturnType<typeof createDomKit>;
}

interface Injection {
  target: { tabId: number; documentIds?: string[]; frameIds?: number[] };
  files?: string[];
  func?: (...args: unknown[]) => unknown;
  args?: unknown[];
}

/**
 * The ops of a fake document's kit: `dom.query` hands out a ref for each item, `dom.click`
 * answers the name of its ref's item.
 */
const kitOps = (doc: FakeDoc) => ({
  "dom.query": (_args: unknown, state: KitState) => ({
    refs: doc.items.map((item) => state.refs.refOf(item as unknown as Element, state.scheme)),
  }),
  "dom.click": ({ ref }: { ref: KitRef }, state: KitState) => ({
    clicked: (elementOfRef(state.refs, ref) as unknown as Item).name,
  }),
});

/**
 * A tab of documents (one per frame at a time); executeScript finds the target's document (a gone
 * documentId is refused as Chrome does), installs a kit there on file injection (kitOps), and runs
 * `func` with that document's kit on globalThis.
 */
function fakeTab() {
  const docs = new Map<string, FakeDoc>();
  const current = new Map<number, string>();
  const injections: Injection[] = [];
  let before: ((injection: Injection) => void) | undefined; // a hook: navigate in between
  const open = (frameId: number, id: string, names: string[]) => {
    const old = current.get(frameId);
    if (old) docs.delete(old);
    const doc: FakeDoc = {
      id,
      frameId,
      items: names.map((name) => ({ name, isConnected: true })),
    };
    docs.set(id, doc);
    current.set(frameId, id);
    return doc;
  };
  const chrome = {
    tabs: {
      get: (id: number) =>
        id === TAB.id ? Promise.resolve(TAB) : Promise.reject(new Error(`No tab with id: ${id}.`)),
      query: () => Promise.resolve([TAB]),
    },
    webNavigation: {
      getFrame: ({ frameId }: { frameId: number }) =>
        Promise.resolve(
          current.has(frameId) ? { frameId, documentId: current.get(frameId) } : null,
        ),
    },
    scripting: {
      async executeScript(injection: Injection) {
        injections.push(injection);
        before?.(injection);
        const { documentIds, frameIds } = injection.target;
        const id = documentIds?.[0] ?? current.get(frameIds?.[0] ?? 0);
        const doc = id === undefined ? undefined : docs.get(id);
        if (!doc) throw new Error(`No document with id ${id} in tab with id 7`);
        if (injection.files) {
          doc.kit = createDomKit(kitOps(doc));
          return [{ frameId: doc.frameId, documentId: doc.id, result: undefined }];
        }
        if (doc.kit) Reflect.set(globalThis, DOM_KIT_GLOBAL, doc.kit);
        else Reflect.deleteProperty(globalThis, DOM_KIT_GLOBAL);
        const args = JSON.parse(JSON.stringify(injection.args));
        return [{
          frameId: doc.frameId,
          documentId: doc.id,
          result: await injection.func!(...args),
        }];
      },
    },
  };
  return {
    chrome,
    open,
    injections,
    docs,
    setBefore: (hook: typeof before) => (before = hook),
  };
}

/**
 * Runs `body` against a fresh fake tab and a fresh method context (its frame table is `frames`),
 * with `query` and `click` calling domCall in that context.
 */
async function withTab(body: (tab: ReturnType<typeof tabWithCalls>) => Promise<void>) {
  const tab = tabWithCalls();
  try {
    await withChrome(tab.chrome, () => body(tab));
  } finally {
    Reflect.deleteProperty(globalThis, DOM_KIT_GLOBAL);
  }
}

function tabWithCalls() {
  const context = fakeMethodContext();
  const query = async (args: Record<string, unknown> = {}) =>
    (await domCall(
      "dom.query",
      parsedInput("dom.query", { tabId: 7, selector: "*", ...args }),
      context,
      "browser_query_elements",
    ) as unknown as { refs: string[] }).refs;
  const click = async (args: Record<string, unknown>) =>
    (await domCall(
      "dom.click",
      parsedInput("dom.click", { tabId: 7, ...args }),
      context,
      "browser_click_element",
    ) as unknown as { clicked: string }).clicked;
  return { ...fakeTab(), frames: context.refFrames, query, click };
}

Deno.test("refs of the top document lead back to their element, in their document", () =>
  withTab(async ({ open, injections, query, click, frames }) => {
    open(0, "TOP-1", ["a", "b"]);
    assertEquals(await query(), ["e1", "e2"]);
    // the call ran in the top document by its id, with the top scheme
    const call = injections.at(-1)!;
    assertEquals(call.target, { tabId: 7, documentIds: ["TOP-1"] });
    assertEquals(call.args?.at(-1), { prefix: "", base: 1 });
    assertEquals((await frames.docOf(7, 0))?.upTo, 2);
    assertEquals(await click({ ref: "e2" }), "b");
    const byRef = injections.at(-1)!;
    assertEquals(byRef.target, { tabId: 7, documentIds: ["TOP-1"] });
    const sent = byRef.args?.[3] as { ref: KitRef };
    assertEquals([sent.ref.n, sent.ref.text], [2, "e2"]);
    assertEquals(sent.ref.token, (await frames.docOf(7, 0))?.token);
  }));

Deno.test("after the tab navigates, an old ref is REF_STALE and the new page numbers above it", () =>
  withTab(async ({ open, query, click }) => {
    open(0, "TOP-1", ["a", "b"]);
    assertEquals(await query(), ["e1", "e2"]);
    open(0, "TOP-2", ["c", "d"]);
    // no call since: the table still names the old document, which Chrome refuses
    const refused = await failureOf(click({ ref: "e2" }));
    assertEquals([refused.payload.code, refused.payload.category], ["REF_STALE", "validation"]);
    assertMatch(refused.payload.message, /Ref "e2" is stale.*browser_snapshot/);
    // the new page's refs start above the old page's
    assertEquals(await query(), ["e3", "e4"]);
    assertEquals(await click({ ref: "e4" }), "d");
    // an old ref now reaches the new document's kit, which never handed it out
    const old = await failureOf(click({ ref: "e1" }));
    assertEquals(old.payload.code, "REF_STALE");
  }));

Deno.test("a removed element's ref is REF_STALE; a ref the table never held too", () =>
  withTab(async ({ open, injections, query, click }) => {
    const doc = open(0, "TOP-1", ["a", "b"]);
    await query();
    doc.items[0].isConnected = false;
    assertEquals((await failureOf(click({ ref: "e1" }))).payload.code, "REF_STALE");
    const calls = injections.length;
    assertEquals((await failureOf(click({ ref: "f9e1" }))).payload.code, "REF_STALE");
    assertEquals((await failureOf(click({ ref: "f9" }))).payload.code, "REF_STALE");
    assertEquals(injections.length, calls, "an unknown frame's ref runs nothing");
  }));

Deno.test("a frame document's refs carry its f<k>; frame by ref runs in that document", () =>
  withTab(async ({ open, injections, query, click, frames }) => {
    open(0, "TOP-1", ["top"]);
    open(4, "PAY-1", ["pay", "cancel"]);
    assertEquals(await frames.schemeFor(7, 4, "PAY-1"), {
      k: 1,
      scheme: { prefix: "f1", base: 1 },
    });
    assertEquals(await query({ frame: "f1" }), ["f1e1", "f1e2"]);
    assertEquals(injections.at(-1)!.target, { tabId: 7, documentIds: ["PAY-1"] });
    assertEquals(await click({ ref: "f1e2" }), "cancel");
    assertEquals(injections.at(-1)!.target, { tabId: 7, documentIds: ["PAY-1"] });
    // frame may repeat the ref's frame
    assertEquals(await click({ ref: "f1e1", frame: "f1" }), "pay");
    // the frame navigates: its refs and its frame ref are stale, its new document gets a new k
    open(4, "PAY-2", ["pay"]);
    assertEquals((await failureOf(click({ ref: "f1e1" }))).payload.code, "REF_STALE");
    assertEquals((await failureOf(query({ frame: "f1" }))).payload.code, "REF_STALE");
    assertEquals((await frames.schemeFor(7, 4, "PAY-2")).k, 2);
    assertEquals(await query({ frame: "f2" }), ["f2e1"]);
  }));

Deno.test("a frame's ref as an element is its <iframe> in the parent document", () =>
  withTab(async ({ open, query, click, frames }) => {
    open(0, "TOP-1", ["heading", "iframe#pay"]);
    open(4, "PAY-1", ["pay"]);
    assertEquals(await query(), ["e1", "e2"]);
    const { k } = await frames.schemeFor(7, 4, "PAY-1");
    // no owner known yet (no snapshot placed it): stale, take a snapshot
    assertEquals((await failureOf(click({ ref: `f${k}` }))).payload.code, "REF_STALE");
    await frames.setOwner(7, k, "e2");
    assertEquals(await click({ ref: `f${k}` }), "iframe#pay");
    // nested: a frame inside frame k, owned by k's element
    open(9, "INNER-1", ["x"]);
    assertEquals(await query({ frame: `f${k}` }), [`f${k}e1`]);
    const inner = await frames.schemeFor(7, 9, "INNER-1");
    await frames.setOwner(7, inner.k, `f${k}e1`);
    assertEquals(await click({ ref: `f${inner.k}` }), "pay");
  }));

Deno.test("a ref with a frame that names another frame is INVALID_ARGUMENTS, naming both", () =>
  withTab(async ({ open, injections, query, click }) => {
    open(0, "TOP-1", ["a"]);
    await query();
    const calls = injections.length;
    for (const [ref, frame] of [["e1", "f1"], ["f1e1", "f2"], ["f1e1", "#pay-frame"]]) {
      const error = await failureOf(click({ ref, frame }));
      assertEquals([error.payload.code, error.payload.category], [
        "INVALID_ARGUMENTS",
        "validation",
      ]);
      assertMatch(error.payload.message, new RegExp(`ref "${ref}" without frame "${frame}"`));
    }
    assertEquals(injections.length, calls);
  }));

Deno.test("the top document changing between the lookup and the call: looked up again", () =>
  withTab(async ({ open, setBefore, query, frames }) => {
    open(0, "TOP-1", ["a"]);
    assertEquals(await query(), ["e1"]);
    let navigated = false;
    setBefore(() => {
      if (navigated) return;
      navigated = true;
      open(0, "TOP-2", ["b", "c"]);
    });
    assertEquals(await query(), ["e2", "e3"]);
    assertEquals((await frames.docOf(7, 0))?.documentId, "TOP-2");
  }));

Deno.test("placeCall: a frame selector's document gets its scheme; its loss is TAB_NAVIGATED", () =>
  withTab(async ({ open, frames }) => {
    open(0, "TOP-1", []);
    open(3, "FORM-1", []);
    const lookups: FrameLookups = {
      findElement: () => Promise.resolve({ ok: true, value: { index: 0, tag: "iframe" } }),
      frames: () =>
        Promise.resolve([
          { frameId: 3, parentFrameId: 0, documentId: "FORM-1" },
        ] as chrome.webNavigation.GetAllFrameResultDetails[]),
      indexes: () => Promise.resolve(new Map([[3, 0]])),
    };
    const place = await placeCall(
      7,
      undefined,
      "#form",
      fakeMethodContext({ refFrames: frames }),
      lookups,
    );
    assertEquals(place.target, { tabId: 7, documentIds: ["FORM-1"] });
    assertEquals([place.k, place.scheme, place.gone], [1, { prefix: "f1", base: 1 }, "frame"]);
    const gone = goneError(place, new Error("No document with id FORM-1 in tab with id 7"));
    assertEquals((gone as HubError).code, "TAB_NAVIGATED");
    assertMatch((gone as HubError).message, /The frame "#form" loaded another page/);
  }));

Deno.test("a query whose top document was replaced while it ran hands out no refs", () =>
  withTab(async ({ open, setBefore, query, frames }) => {
    open(0, "TOP-1", ["a", "b"]);
    // Another call registers the tab's next top document while this query runs.
    setBefore((injection) => {
      if (injection.func) void frames.schemeFor(7, 0, "TOP-2");
    });
    const failed = await failureOf(query());
    assertEquals(failed.payload.code, "TAB_NAVIGATED");
    assertMatch(failed.payload.message, /refs it found would be stale/);
  }));
