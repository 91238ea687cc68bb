/// <reference lib="deno.ns" />
import { assertEquals } from "../../tests/helpers/assert.ts";
import { CliError } from "./cli_error.ts";
import { exitCodeFor } from "./exit_code.ts";

Deno.test("exitCodeFor: a user error's message is printed with hidden characters escaped", () => {
  const printed: string[] = [];
  const original = console.error;
  console.error = (line: string) => printed.push(line);
  try {
    const code = exitCodeFor(new CliError("plugin \u202Eyppa said\x1b[2J no\nsecond line", 3));
    assertEquals(code, 3);
  } finally {
    console.error = original;
  }
  assertEquals(printed, ["error: plugin ⟨U+202E⟩yppa said⟨U+001B⟩[2J no\nsecond line"]);
});
