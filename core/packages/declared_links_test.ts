/// <reference lib="deno.ns" />
import { assertEquals } from "../../tests/helpers/assert.ts";
import { declaredLinks } from "./declared_links.ts";

Deno.test("declaredLinks lists bin keys, a string bin by package name, man pages and folders", () => {
  assertEquals(
    declaredLinks({
      name: "@x/hub-plugin-y",
      bin: { git: "a.js", ls: "b.js" },
      man: ["./man/y.1"],
      directories: { bin: "./bin", man: "./man" },
    }),
    { bin: ["git", "ls", "every program in ./bin"], man: ["./man/y.1", "every page in ./man"] },
  );
  assertEquals(declaredLinks({ name: "@x/hub-plugin-y", bin: "cli.js", man: "y.1" }), {
    bin: ["hub-plugin-y"],
    man: ["y.1"],
  });
});

Deno.test("declaredLinks: nothing declared, odd shapes, and a bounded list", () => {
  assertEquals(declaredLinks({ name: "hub-plugin-x" }), { bin: [], man: [] });
  assertEquals(declaredLinks(null), { bin: [], man: [] });
  assertEquals(declaredLinks({ bin: 3, man: { a: 1 }, directories: [] }), { bin: [], man: [] });
  const many = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`p${i}`, "x.js"]));
  assertEquals(declaredLinks({ bin: many }).bin.length, 20);
});
