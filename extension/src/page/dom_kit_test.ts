/// <reference lib="deno.ns" />
import { assert, assertEquals } from "../../../tests/helpers/assert.ts";
import { createDomKit, DOM_OPS, installDomKit } from "./dom_kit.ts";
import { DOM_KIT_GLOBAL, DOM_KIT_VERSION, type DomOp } from "./dom_kit_types.ts";
import { fail } from "./dom_find.ts";
import { DOM_METHODS } from "../../../protocol/browser_methods/dom.ts";

Deno.test("the kit has one operation per DOM method of the contract, and its own steps", () => {
  const ops: DomOp[] = Object.keys(DOM_METHODS) as DomOp[];
  assertEquals(ops.length, 12);
  const own = Object.keys(DOM_OPS).filter((op) => !Object.hasOwn(DOM_METHODS, op));
  assertEquals(Object.keys(DOM_OPS).filter((op) => !own.includes(op)).sort(), ops.sort());
  // The kit-only operations (kit_only_ops.ts): a KitOnlyArgs entry without an operation fails
  // the type check of DOM_OPS, so this list only guards against a stray extra one.
  assertEquals(own.sort(), ["dom.acted", "dom.focus", "dom.keysDone", "dom.option", "dom.point"]);
});

Deno.test("run answers a value, a failure with its code, or PAGE_ERROR; never throws", async () => {
  const kit = createDomKit({
    echo: (args: { x: number }) => ({ got: args.x }),
    later: () => Promise.resolve({ done: true }),
    missing: () => {
      throw fail("ELEMENT_NOT_FOUND", "No element matches");
    },
    broken: () => {
      throw new TypeError("x is undefined");
    },
    rejects: () => Promise.reject("just a string"),
  });
  assertEquals(kit.version, DOM_KIT_VERSION);
  const echoed = await kit.run("echo", { x: 1 });
  assert(echoed.ok && echoed.doc && echoed.doc.upTo === -1, "an answer reports the registry");
  assertEquals(await kit.run("echo", { x: 1 }), { ...echoed, value: { got: 1 } });
  const later = await kit.run("later", {});
  assertEquals(later.ok ? later.value : undefined, { done: true });
  assertEquals(await kit.run("missing", {}), {
    ok: false,
    error: { code: "ELEMENT_NOT_FOUND", message: "No element matches" },
  });
  assertEquals(await kit.run("broken", {}), {
    ok: false,
    error: { code: "PAGE_ERROR", message: "TypeError: x is undefined" },
  });
  assertEquals(await kit.run("rejects", {}), {
    ok: false,
    error: { code: "PAGE_ERROR", message: "just a string" },
  });
  const unknown = await kit.run("toString", {});
  assertEquals(unknown.ok ? "" : unknown.error.code, "UNKNOWN_OPERATION", "no inherited names");
});

Deno.test("the operations keep state per kit (the hovered element)", async () => {
  const seen: unknown[] = [];
  const kit = createDomKit({
    mark: (args: { el: string }, state) => {
      seen.push(state.hovered);
      state.hovered = args.el as unknown as Element;
      return {};
    },
  });
  await kit.run("mark", { el: "first" });
  await kit.run("mark", { el: "second" });
  assertEquals(seen, [undefined, "first"]);
});

Deno.test("installDomKit installs once per version and replaces an older kit", () => {
  const world: Record<string, unknown> = {};
  const kit = installDomKit(world);
  assertEquals(world[DOM_KIT_GLOBAL], kit);
  assertEquals(installDomKit(world), kit, "the same version is kept");
  world[DOM_KIT_GLOBAL] = { version: "0", run: () => {} };
  const fresh = installDomKit(world);
  assertEquals(fresh.version, DOM_KIT_VERSION);
  assertEquals(world[DOM_KIT_GLOBAL], fresh);
});

Deno.test("importing the kit outside a page installs nothing", () => {
  assertEquals(Reflect.has(globalThis, DOM_KIT_GLOBAL), false);
});

Deno.test("run writes refs by the scheme the worker sends, and ignores a bad one", async () => {
  const element = { isConnected: true } as unknown as Element;
  const kit = createDomKit({
    name: (_args, state) => ({ ref: state.refs.refOf(element, state.scheme) }),
  });
  const first = await kit.run("name", {}, { prefix: "f2", base: 7 });
  assertEquals(first.ok ? first.value : undefined, { ref: "f2e7" });
  const odd = await kit.run("name", {}, { prefix: "e1] [ref=x", base: 1 } as never);
  assertEquals(odd.ok ? odd.value : undefined, { ref: "e7" }, "a bad prefix is the top's");
});

Deno.test("element hands the debugger a ref's element, only for this registry's token", async () => {
  const element = { isConnected: true } as unknown as Element;
  const kit = createDomKit({
    name: (_args, state) => ({
      ref: state.refs.refOf(element, state.scheme),
      token: state.refs.token,
    }),
  });
  const named = await kit.run("name", {}, { prefix: "", base: 3 });
  assert(named.ok);
  const { token } = named.value as { token: string };
  assert(kit.element!(token, 3) === element);
  assertEquals(kit.element!("another-token", 3), null);
  assertEquals(kit.element!(token, 4), null);
});
