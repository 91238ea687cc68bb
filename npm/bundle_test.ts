import { join } from "node:path";
import { assert, assertEquals, assertThrows } from "../tests/helpers/assert.ts";
import {
  bundleEntry,
  packageNameOf,
  rewriteImportMeta,
  stopBundler,
  workspaceExports,
} from "./bundle.ts";
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

/** The npm packages `file` and the chunks it imports statically load, following chunk imports. */
async function loadedAtStart(dir: string, file: string): Promise<Set<string>> {
  const packages = new Set<string>();
  const seen = new Set<string>();
  const visit = async (name: string) => {
    if (seen.has(name)) return;
    seen.add(name);
    const text = await Deno.readTextFile(join(dir, name));
    // Static imports only: `import ... from "x"` and `import "x"`; `import("x")` is lazy.
    for (const [, spec] of text.matchAll(/(?:\bfrom|^import)\s*"([^"]+)"/gm)) {
      if (spec.startsWith("./")) await visit(spec.slice(2));
      else if (!spec.startsWith("node:")) packages.add(packageNameOf(spec));
    }
  };
  await visit(file);
  return packages;
}

Deno.test("the hub's bundle loads only zod for `hub start`, the rest when it needs it", async () => {
  const out = await Deno.makeTempDir({ prefix: "hub_bundle_" });
  try {
    const root = join(import.meta.dirname!, "..");
    const result = await bundleEntry(root, "main.ts", out, "main.js");
    assertEquals(result.files[0], "main.js");
    assert(result.files.slice(1).every((f) => /^chunk-[A-Z0-9]+\.js$/.test(f)), `${result.files}`);
    assert(result.packages.includes("@modelcontextprotocol/sdk"), `${result.packages}`);
    // main.js reads a start line itself (cli/server/start_args.ts), then imports the server's chunk.
    assertEquals([...await loadedAtStart(out, "main.js")], []);
    const start = result.chunks["cli/server/start.ts"];
    assert(start, `no chunk starts at cli/server/start.ts: ${JSON.stringify(result.chunks)}`);
    assertEquals([...await loadedAtStart(out, start)], ["zod"]);
    const program = await loadedAtStart(out, result.chunks["cli/program.ts"]);
    assert(program.has("commander"), "the other commands read their line with commander");
  } finally {
    await stopBundler();
    await Deno.remove(out, { recursive: true });
  }
});
