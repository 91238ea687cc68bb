/// <reference lib="deno.ns" />
import { assert, assertEquals } from "../../tests/helpers/assert.ts";
import { UserError } from "./user_error.ts";
import { exitCodeFor } from "./exit_code.ts";
import { unusableFileError } from "../files/bounded_read.ts";

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

Deno.test("exitCodeFor: an unusable file is a user error (one line, exit 1), not a bug", () => {
  const printed: string[] = [];
  const original = console.error;
  console.error = (line: string) => printed.push(line);
  let code: number;
  try {
    code = exitCodeFor(unusableFileError("/cfg/auth.json", "too_large", "is 2 MB, over the limit"));
  } finally {
    console.error = original;
  }
  assertEquals(code, 1);
  assertEquals(printed, ["error: /cfg/auth.json is 2 MB, over the limit"]);
});

Deno.test("exitCodeFor: any other error is reported as a bug with its stack", () => {
  const printed: string[] = [];
  const original = console.error;
  console.error = (line: string) => printed.push(line);
  try {
    assertEquals(exitCodeFor(new TypeError("x is undefined"), "hub-plugin"), 1);
  } finally {
    console.error = original;
  }
  assertEquals(printed.length, 1);
  assert(printed[0].startsWith("error (a bug in hub-plugin; please report it): TypeError: x is"));
});
