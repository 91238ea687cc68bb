import { assertEquals, assertThrows } from "../tests/helpers/assert.ts";
import { collectInput } from "./plugin_create.ts";
import { CliError } from "../core/cli_error.ts";

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
    (e: Error) => e instanceof CliError && /<name> and --domain <domain>/.test(e.message),
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
