/// <reference lib="deno.ns" />
import { assertEquals } from "../../../tests/helpers/assert.ts";
import { createRefRegistry } from "./dom_refs.ts";
import { elementOfRef } from "./dom_find.ts";

/** A stand-in document, and elements: the registry reads only `isConnected` and `ownerDocument`. */
const doc = {} as Document;
const element = (isConnected = true, ownerDocument = doc) =>
  ({ isConnected, ownerDocument }) as unknown as Element;
const top = { prefix: "", base: 1 };

Deno.test("an element keeps its ref; a new one gets the next number", () => {
  const registry = createRefRegistry("t", doc);
  const a = element(), b = element();
  assertEquals(registry.refOf(a, top), "e1");
  assertEquals(registry.refOf(b, top), "e2");
  assertEquals(registry.refOf(a, top), "e1");
  assertEquals(registry.upTo, 2);
  assertEquals(registry.refOf(element(), { prefix: "f3", base: 1 }), "f3e3");
});

Deno.test("a fresh registry starts at the base it is given, and only then", () => {
  const registry = createRefRegistry("t", doc);
  assertEquals(registry.upTo, -1);
  assertEquals(registry.refOf(element(), { prefix: "", base: 40 }), "e40");
  assertEquals(registry.refOf(element(), { prefix: "", base: 90 }), "e41");
});

Deno.test("elementOf answers live elements of this registry only", () => {
  const registry = createRefRegistry("t", doc);
  const live = element(), gone = element(false);
  registry.refOf(live, top);
  registry.refOf(gone, top);
  assertEquals(registry.elementOf({ n: 1, token: "t" }), live);
  assertEquals(registry.elementOf({ n: 1, token: "other" }), undefined, "another kit's ref");
  assertEquals(registry.elementOf({ n: 2, token: "t" }), undefined, "detached");
  assertEquals(registry.elementOf({ n: 9, token: "t" }), undefined, "never handed out");
});

Deno.test("an element adopted into another document is no longer its ref's element", () => {
  const registry = createRefRegistry("t", doc);
  const moved = { isConnected: true, ownerDocument: doc };
  registry.refOf(moved as unknown as Element, top);
  assertEquals(registry.elementOf({ n: 1, token: "t" }), moved);
  moved.ownerDocument = {} as Document; // the page ran frame.contentDocument.adoptNode(it)
  assertEquals(registry.elementOf({ n: 1, token: "t" }), undefined);
});

Deno.test("elementOfRef fails with REF_STALE naming the ref", () => {
  const registry = createRefRegistry("t", doc);
  let error: Error & { code?: string } = new Error("did not throw");
  try {
    elementOfRef(registry, { n: 1, token: "t", text: "f2e1" });
  } catch (thrown) {
    error = thrown as typeof error;
  }
  assertEquals(error.code, "REF_STALE");
  assertEquals(error.message.startsWith('Ref "f2e1" is stale'), true);
});
