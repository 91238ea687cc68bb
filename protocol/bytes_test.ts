/// <reference lib="deno.ns" />
import { assertEquals } from "../tests/helpers/assert.ts";
import { base64Bytes, concatBytes, fromBase64, toBase64 } from "./bytes.ts";

Deno.test("concatBytes joins parts in order; one part is returned as it is; none is empty", () => {
  const a = new Uint8Array([1, 2]);
  assertEquals(
    concatBytes([a, new Uint8Array([]), new Uint8Array([3])]),
    new Uint8Array([1, 2, 3]),
  );
  assertEquals(concatBytes([a]) === a, true);
  assertEquals(concatBytes([]), new Uint8Array([]));
});

Deno.test("base64Bytes is the decoded size", () => {
  for (const n of [0, 1, 2, 3, 4, 5, 1000]) assertEquals(base64Bytes(btoa("x".repeat(n))), n);
});

function roundTrips() {
  const all = Uint8Array.from({ length: 256 }, (_, i) => i);
  const text = btoa(String.fromCharCode(...all));
  assertEquals(toBase64(all), text);
  assertEquals(fromBase64(text), all);
  const large = new Uint8Array(200_000).fill(7);
  assertEquals(fromBase64(toBase64(large)), large);
}

Deno.test("toBase64 and fromBase64 round-trip every byte, a large array too", roundTrips);

Deno.test("without the native base64 methods (Chromium 125) they go through atob and btoa", () => {
  const from = Object.getOwnPropertyDescriptor(Uint8Array, "fromBase64")!;
  const to = Object.getOwnPropertyDescriptor(Uint8Array.prototype, "toBase64")!;
  delete (Uint8Array as { fromBase64?: unknown }).fromBase64;
  delete (Uint8Array.prototype as { toBase64?: unknown }).toBase64;
  try {
    assertEquals(typeof Uint8Array.fromBase64, "undefined");
    roundTrips();
  } finally {
    Object.defineProperty(Uint8Array, "fromBase64", from);
    Object.defineProperty(Uint8Array.prototype, "toBase64", to);
  }
});
