import { assertEquals, assertRejects } from "../../tests/helpers/assert.ts";
import { npmRootFinder, npmRootFromEnv } from "./npm_root.ts";

Deno.test("npm root: the folder the npm wrapper names wins, and npm is not run", async () => {
  const runs: string[][] = [];
  const find = npmRootFinder(
    (args) => {
      runs.push(args);
      return Promise.resolve("/from/npm\n");
    },
    () => "/prefix/lib/node_modules",
  );
  assertEquals(await find(), "/prefix/lib/node_modules");
  assertEquals(runs, []);
});

Deno.test("npm root: without HUB_NPM_ROOT, npm root -g runs once and is remembered", async () => {
  const runs: string[][] = [];
  const find = npmRootFinder((args) => {
    runs.push(args);
    return Promise.resolve("/usr/lib/node_modules\n");
  }, () => undefined);
  assertEquals(await find(), "/usr/lib/node_modules");
  assertEquals(await find(), "/usr/lib/node_modules");
  assertEquals(runs, [["root", "-g"]]);
});

Deno.test("npm root: a failure is thrown each time, so a later call can succeed", async () => {
  let answer = "";
  const find = npmRootFinder(() => Promise.resolve(answer), () => undefined);
  await assertRejects(() => find(), /"npm root -g" printed nothing/);
  answer = "/later/node_modules";
  assertEquals(await find(), "/later/node_modules");
});

Deno.test("npm root: HUB_NPM_ROOT is read from the environment, blank means unset", () => {
  const before = Deno.env.get("HUB_NPM_ROOT");
  try {
    Deno.env.set("HUB_NPM_ROOT", " /p/lib/node_modules ");
    assertEquals(npmRootFromEnv(), "/p/lib/node_modules");
    Deno.env.set("HUB_NPM_ROOT", " ");
    assertEquals(npmRootFromEnv(), undefined);
  } finally {
    if (before === undefined) Deno.env.delete("HUB_NPM_ROOT");
    else Deno.env.set("HUB_NPM_ROOT", before);
  }
});

Deno.test("npm root: without permission to read HUB_NPM_ROOT it is ignored, not an error", async () => {
  const module = new URL("./npm_root.ts", import.meta.url).href;
  const script = await Deno.makeTempFile({ prefix: "npm_root_", suffix: ".ts" });
  try {
    await Deno.writeTextFile(
      script,
      `const m = await import(${JSON.stringify(module)});\n` +
        `console.log(JSON.stringify(m.npmRootFromEnv() ?? null));\n`,
    );
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--no-prompt", "--no-config", "--no-lock", script],
      env: { HUB_NPM_ROOT: "/p/lib/node_modules" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(output.stderr);
    assertEquals(output.code, 0, stderr);
    assertEquals(new TextDecoder().decode(output.stdout).trim(), "null");
  } finally {
    await Deno.remove(script);
  }
});
