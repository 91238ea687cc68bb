/// <reference lib="deno.ns" />
/** `createCallEnds`: the hub's end of a call, or a closed link, aborts that call's signal. */
import { assertEquals } from "../../../tests/helpers/assert.ts";
import { errorPayload, type HubError } from "../../../protocol/errors.ts";
import { createCallEnds } from "./call_ends.ts";

Deno.test("the hub's end aborts the call's signal with the hub's error", () => {
  const ends = createCallEnds();
  const signal = ends.start("d1");
  const other = ends.start("d2");
  ends.ended("d1", errorPayload("TIMEOUT", "x ran longer than the 300 s maximum."));
  assertEquals(signal.aborted, true);
  assertEquals((signal.reason as HubError).payload.code, "TIMEOUT");
  assertEquals(other.aborted, false);
  assertEquals(ends.running(), 1);
});

Deno.test("an end without an error is CANCELLED; an end of a call that answered does nothing", () => {
  const ends = createCallEnds();
  const signal = ends.start("d1");
  ends.ended("d1");
  assertEquals((signal.reason as HubError).payload.code, "CANCELLED");
  const done = ends.start("d2");
  ends.done("d2");
  ends.ended("d2", errorPayload("TIMEOUT", "late"));
  assertEquals(done.aborted, false);
  assertEquals(ends.running(), 0);
});

Deno.test("a closed link ends every running call with EXTENSION_DISCONNECTED", () => {
  const ends = createCallEnds();
  const signals = [ends.start("a"), ends.start("b")];
  ends.linkClosed();
  assertEquals(
    signals.map((s) => (s.reason as HubError).payload.code),
    ["EXTENSION_DISCONNECTED", "EXTENSION_DISCONNECTED"],
  );
  assertEquals(ends.running(), 0);
});
