import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { assert, assertEquals, assertMatch, assertThrows } from "../../tests/helpers/assert.ts";
import { collectInput, createPluginCommand } from "./create.ts";
import { scaffoldFiles } from "./scaffold.ts";
import { UserError } from "../../core/cli/user_error.ts";

/** A fake terminal that answers questions in order and records them. */
function answers(...replies: string[]) {
  const asked: string[] = [];
  const ask = (question: string) => {
    asked.push(question);
    return replies.shift() ?? null;
  };
  return { ask, asked };
}

Deno.test("without a terminal, missing name and --domain are listed together", () => {
  assertThrows(
    () => collectInput(undefined, {}, undefined),
    (e: Error) => e instanceof UserError && /<name> and --domain <domain>/.test(e.message),
  );
  assertThrows(() => collectInput("x", {}, undefined), /Missing --domain/);
});

Deno.test("without a terminal, display and description get defaults", () => {
  const input = collectInput("my-app", { domain: "app.example.com" }, undefined);
  assertEquals(input, {
    name: "my-app",
    domain: "app.example.com",
    displayName: "My App",
    description: "Tools for My App (app.example.com)",
  });
});

Deno.test("bad flag values are errors naming the flag", () => {
  assertThrows(() => collectInput("My_App", { domain: "x.com" }, undefined), /Plugin name/);
  assertThrows(() => collectInput("browser", { domain: "x.com" }, undefined), /reserved/);
  assertThrows(() => collectInput("ok", { domain: "not a domain" }, undefined), /--domain/);
});

Deno.test("on a terminal it asks for each missing value and re-asks after a bad answer", () => {
  const { ask, asked } = answers("Bad Name", "notes", "https://notes.example.com/x", "", "Mine");
  const input = collectInput(undefined, {}, ask);
  assertEquals(input, {
    name: "notes",
    domain: "notes.example.com",
    displayName: "Notes",
    description: "Mine",
  });
  assertEquals(asked.length, 5); // name twice, domain, display (default taken), description
});

Deno.test("on a terminal, flags that were given are not asked for", () => {
  const { ask, asked } = answers("", "");
  collectInput("notes", { domain: "notes.example.com" }, ask);
  assertEquals(asked.length, 2);
});

Deno.test("ending input at a prompt cancels", () => {
  const { ask } = answers();
  assertThrows(() => collectInput(undefined, {}, ask), /Cancelled/);
});

async function readTree(dir: string, prefix = ""): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for await (const entry of Deno.readDir(join(dir, prefix))) {
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory) Object.assign(files, await readTree(dir, path));
    else files[path] = await Deno.readTextFile(join(dir, path));
  }
  return files;
}

Deno.test("hub plugin create writes the scaffold, naming neither its folder nor hub's", async () => {
  const cwd = await Deno.makeTempDir({ prefix: "hub-plugin-create-" });
  const hubRoot = fileURLToPath(new URL("../../", import.meta.url)).replace(/\/$/, "");
  const before = Deno.env.get("INIT_CWD");
  const log = console.log;
  const printed: string[] = [];
  Deno.env.set("INIT_CWD", cwd);
  console.log = (...args: unknown[]) => printed.push(args.join(" "));
  try {
    await createPluginCommand("my-app", { domain: "app.example.com" });
    const dir = join(cwd, "my-app");
    const written = await readTree(dir);
    const input = collectInput("my-app", { domain: "app.example.com" }, undefined);
    assertEquals(written, scaffoldFiles(input));
    for (const [file, text] of Object.entries(written)) {
      for (const path of [cwd, hubRoot, "/tmp", "/work", "/home", "/usr"]) {
        assert(!text.includes(path), `${file} names the absolute path ${path}`);
      }
    }
    assertMatch(printed.join("\n"), /Created plugin "my-app" in .*my-app\n/);
    assertMatch(printed.join("\n"), /deno task build +# = hub-plugin build/);
  } finally {
    console.log = log;
    if (before === undefined) Deno.env.delete("INIT_CWD");
    else Deno.env.set("INIT_CWD", before);
    await Deno.remove(cwd, { recursive: true });
  }
});
