import { assertEquals, assertThrows } from "../../tests/helpers/assert.ts";
import { parseLogLevel } from "./log_level.ts";

Deno.test("parseLogLevel accepts the five levels, defaults to info, rejects others", () => {
  assertEquals(parseLogLevel(undefined), "info");
  assertEquals(parseLogLevel("DEBUG"), "debug");
  assertEquals(parseLogLevel("silent"), "silent");
  assertThrows(() => parseLogLevel("verbose"), /debug, info, warn, error, silent/);
});
