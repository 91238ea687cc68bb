import { assertEquals } from "../../tests/helpers/assert.ts";
import { denoCommand } from "./deno_command.ts";

/** What denoCommand() says in a child `deno run` with `flags`. */
async function inChild(flags: string[]): Promise<string> {
  const module = new URL("./deno_command.ts", import.meta.url).href;
  const file = await Deno.makeTempFile({ suffix: ".ts" });
  try {
    await Deno.writeTextFile(
      file,
      `import { denoCommand } from "${module}";\nconsole.log(String(denoCommand()));\n`,
    );
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--quiet", "--no-config", ...flags, file],
      stdout: "piped",
      stderr: "inherit",
    }).output();
    return new TextDecoder().decode(out.stdout).trim();
  } finally {
    await Deno.remove(file);
  }
}

Deno.test("denoCommand: this binary when it may run; nothing when no Deno may run", async () => {
  assertEquals(denoCommand(), Deno.execPath()); // the tests run with -A
  assertEquals(await inChild(["--allow-read", "--allow-run=npm"]), "undefined");
  const allowed = await inChild(["--allow-read", "--allow-run=deno"]);
  assertEquals(allowed === Deno.execPath() || allowed === "deno", true, allowed);
});
