/// <reference lib="deno.ns" />
/**
 * What `hub-plugin build --watch` does with a failed build: a user error, an unusable file among
 * them, is one line and watching goes on; anything else ends the watch.
 */
import { assertEquals, assertThrows } from "../tests/helpers/assert.ts";
import { unusableFileError } from "../core/files/bounded_read.ts";
import { UserError } from "../core/cli/user_error.ts";
import { reportWatchFailure } from "./build_command.ts";

function printed(work: () => void): string[] {
  const lines: string[] = [];
  const original = console.error;
  console.error = (line: string) => lines.push(line);
  try {
    work();
  } finally {
    console.error = original;
  }
  return lines;
}

Deno.test("watching goes on after an unusable file: it is a user error, printed as one line", () => {
  const error = unusableFileError(
    "/cfg/config.json",
    "not_a_file",
    "is a folder, not a regular file",
  );
  assertEquals(printed(() => reportWatchFailure(error)), [
    "error: /cfg/config.json is a folder, not a regular file",
  ]);
  assertEquals(printed(() => reportWatchFailure(new UserError("bad package.json"))), [
    "error: bad package.json",
  ]);
});

Deno.test("anything else is a bug in hub-plugin: the watch ends with it", () => {
  const bug = new TypeError("x is undefined");
  assertEquals(printed(() => assertThrows(() => reportWatchFailure(bug), TypeError)), []);
});
