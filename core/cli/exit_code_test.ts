/// <reference lib="deno.ns" />
import { assertEquals } from "../../tests/helpers/assert.ts";
import { UserError } from "./user_error.ts";
import { exitCodeFor } from "./exit_code.ts";

Deno.test("exitCodeFor: a user error's message is printed with hidden characters escaped", () => {
  const printed: string[] = [];
  const original = console.error;
  console.error = (line: string) => printed.push(line);
  try {
    const code = exitCodeFor(
      new UserError("plugin \u202Eyppa said\x1b[2J no\nsecond line", { exitCode: 3 }),
    );
    assertEquals(code, 3);
  } finally {
    console.error = original;
  }
  assertEquals(printed, ["error: plugin ⟨U+202E⟩yppa said⟨U+001B⟩[2J no\nsecond line"]);
});
