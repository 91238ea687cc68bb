import { assertEquals, assertRejects, assertThrows } from "../../tests/helpers/assert.ts";
import { globalRootFinder, globalRootOf, prefixOfGlobalRoot } from "./global_root.ts";
import type { NpmResult } from "../process/npm_runner.ts";

Deno.test("the prefix of a global root, and back", () => {
  assertEquals(prefixOfGlobalRoot("/usr/local/lib/node_modules", "linux"), "/usr/local");
  assertEquals(prefixOfGlobalRoot("/home/u/.npm/lib/node_modules/", "darwin"), "/home/u/.npm");
  assertEquals(globalRootOf("/usr/local", "linux"), "/usr/local/lib/node_modules");
  assertThrows(
    () => prefixOfGlobalRoot("/opt/plugins", "linux"),
    /not laid out like npm's \(<prefix>\/lib\/node_modules\).*HUB_NPM_ROOT/,
  );
  assertThrows(() => prefixOfGlobalRoot("/opt/node_modules", "linux"), /not laid out/);
});

Deno.test("globalRootFinder: HUB_NPM_ROOT first, else npm root -g once", async () => {
  let calls = 0;
  const answer: Partial<NpmResult> = { code: 0, stdout: "/p/lib/node_modules\n" };
  const npm = (args: string[]) => {
    calls++;
    assertEquals(args, ["root", "--global"]);
    return Promise.resolve({ code: 0, stdout: "", stderr: "", timedOut: false, ...answer });
  };
  let env: string | undefined = "/env/lib/node_modules";
  const find = globalRootFinder(npm, () => env);
  assertEquals(await find(), "/env/lib/node_modules");
  env = undefined;
  assertEquals(await find(), "/p/lib/node_modules");
  assertEquals(await find(), "/p/lib/node_modules");
  assertEquals(calls, 1);
  answer.code = 1;
  answer.stderr = "npm error broken";
  await assertRejects(
    globalRootFinder(npm, () => undefined)(),
    /npm root --global.*broken.*HUB_NPM_ROOT/,
  );
});
