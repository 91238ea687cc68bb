import { join } from "node:path";
import { assertEquals, assertThrows } from "../tests/helpers/assert.ts";
import { packageNameOf, rewriteImportMeta, workspaceExports } from "./bundle.ts";
import { ROOT } from "./build.ts";

Deno.test("import.meta of a bundled source points at the source's place in the package", () => {
  const text = [
    `const a = new URL("../../extension/dist/", import.meta.url);`,
    `const b = join(import.meta.dirname ?? ".", "..");`,
    `const c = import.meta.filename;`,
    `if (import.meta.main) run();`,
  ].join("\n");
  const out = rewriteImportMeta(text, "server/extension/install.ts", "main.js", false);
  assertEquals(out.split("\n"), [
    `const a = new URL("../../extension/dist/", new URL("./server/extension/install.ts", import.meta.url).href);`,
    `const b = join((import.meta.dirname && import.meta.dirname + "/server/extension") ?? ".", "..");`,
    `const c = (import.meta.dirname && import.meta.dirname + "/server/extension/install.ts");`,
    `if (false) run();`,
  ]);
});

Deno.test("import.meta: a bundle in a subfolder, and the entry keeps import.meta.main", () => {
  const text = `new URL("../sdk/", import.meta.url); if (import.meta.main) go();`;
  assertEquals(
    rewriteImportMeta(text, "plugin_cli/bundle.ts", "plugin_cli/main.js", false),
    `new URL("../sdk/", new URL("./bundle.ts", import.meta.url).href); if (false) go();`,
  );
  assertEquals(
    rewriteImportMeta(`if (import.meta.main) go(import.meta.dirname);`, "main.ts", "main.js", true),
    `if (import.meta.main) go((import.meta.dirname && import.meta.dirname + ""));`,
  );
});

Deno.test("import.meta.resolve of a relative path cannot be bundled and says why", () => {
  assertThrows(
    () => rewriteImportMeta(`import.meta.resolve("./x.ts")`, "cli/a.ts", "main.js", false),
    /Cannot bundle cli\/a\.ts: import\.meta\.resolve of a relative path/,
  );
  assertEquals(
    rewriteImportMeta(`import.meta.resolve("zod")`, "cli/a.ts", "main.js", false),
    `import.meta.resolve("zod")`,
  );
});

Deno.test("the npm package an import names", () => {
  assertEquals(packageNameOf("zod"), "zod");
  assertEquals(packageNameOf("zod/v4/core"), "zod");
  assertEquals(
    packageNameOf("@modelcontextprotocol/sdk/server/index.js"),
    "@modelcontextprotocol/sdk",
  );
});

Deno.test("workspace names resolve to the files their members export", async () => {
  const names = await workspaceExports(ROOT);
  const nameOf = (dir: string) =>
    JSON.parse(Deno.readTextFileSync(join(ROOT, dir, "deno.json"))).name as string;
  assertEquals(names.get(nameOf("sdk")), join(ROOT, "sdk", "mod.ts"));
  assertEquals(names.get(`${nameOf("protocol")}/errors`), join(ROOT, "protocol", "errors.ts"));
});
