/// <reference lib="deno.ns" />
import { assertEquals } from "../../../tests/helpers/assert.ts";
import { createDomKit, DOM_OPS, installDomKit } from "./dom_kit.ts";
import { DOM_KIT_GLOBAL, DOM_KIT_VERSION, type DomOp } from "./dom_kit_types.ts";
import { fail } from "./dom_find.ts";
import { DOM_METHODS } from "../../../protocol/browser_methods/dom.ts";

Deno.test("the kit has one operation per DOM method of the contract", () => {
  const ops: DomOp[] = Object.keys(DOM_METHODS) as DomOp[];
  assertEquals(ops.length, 10);
  assertEquals(Object.keys(DOM_OPS).sort(), ops.sort());
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
  assertEquals(await kit.run("echo", { x: 1 }), { ok: true, value: { got: 1 } });
  assertEquals(await kit.run("later", {}), { ok: true, value: { done: true } });
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
