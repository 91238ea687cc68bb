/// <reference lib="deno.ns" />
import { assertEquals } from "../../../tests/helpers/assert.ts";
import { createRefRegistry } from "./dom_refs.ts";
import { elementOfRef } from "./dom_find.ts";

/** A stand-in element: the registry reads only `isConnected`. */
const element = (isConnected = true) => ({ isConnected }) as unknown as Element;
const top = { prefix: "", base: 1 };

Deno.test("an element keeps its ref; a new one gets the next number", () => {
  const registry = createRefRegistry("t");
  const a = element(), b = element();
  assertEquals(registry.refOf(a, top), "e1");
  assertEquals(registry.refOf(b, top), "e2");
  assertEquals(registry.refOf(a, top), "e1");
  assertEquals(registry.upTo, 2);
  assertEquals(registry.refOf(element(), { prefix: "f3", base: 1 }), "f3e3");
});

Deno.test("a fresh registry starts at the base it is given, and only then", () => {
  const registry = createRefRegistry("t");
  assertEquals(registry.upTo, -1);
  assertEquals(registry.refOf(element(), { prefix: "", base: 40 }), "e40");
  assertEquals(registry.refOf(element(), { prefix: "", base: 90 }), "e41");
});

Deno.test("elementOf answers live elements of this registry only", () => {
  const registry = createRefRegistry("t");
  const live = element(), gone = element(false);
  registry.refOf(live, top);
  registry.refOf(gone, top);
  assertEquals(registry.elementOf({ n: 1, token: "t" }), live);
  assertEquals(registry.elementOf({ n: 1, token: "other" }), undefined, "another kit's ref");
  assertEquals(registry.elementOf({ n: 2, token: "t" }), undefined, "detached");
  assertEquals(registry.elementOf({ n: 9, token: "t" }), undefined, "never handed out");
});

Deno.test("elementOfRef fails with REF_STALE naming the ref", () => {
  const registry = createRefRegistry("t");
  let error: Error & { code?: string } = new Error("did not throw");
  try {
    elementOfRef(registry, { n: 1, token: "t", text: "f2e1" });
  } catch (thrown) {
    error = thrown as typeof error;
  }
  assertEquals(error.code, "REF_STALE");
  assertEquals(error.message.startsWith('Ref "f2e1" is stale'), true);
});
