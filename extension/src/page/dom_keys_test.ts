/// <reference lib="deno.ns" />
import { assertEquals } from "../../../tests/helpers/assert.ts";
import { keyInfo, NAMED_KEYS } from "./dom_keys.ts";

Deno.test("keyInfo gives letters, digits and punctuation their code and keyCode", () => {
  assertEquals(keyInfo("a"), { key: "a", code: "KeyA", keyCode: 65, printable: true, location: 0 });
  assertEquals(keyInfo("Z"), { key: "Z", code: "KeyZ", keyCode: 90, printable: true, location: 0 });
  assertEquals(keyInfo("7")?.code, "Digit7");
  assertEquals(keyInfo("7")?.keyCode, 55);
  assertEquals([keyInfo("!")?.code, keyInfo("!")?.keyCode], ["Digit1", 49]);
  assertEquals([keyInfo("(")?.code, keyInfo(")")?.code], ["Digit9", "Digit0"]);
  assertEquals([keyInfo(" ")?.code, keyInfo(" ")?.keyCode], ["Space", 32]);
  assertEquals([keyInfo("/")?.code, keyInfo("?")?.code], ["Slash", "Slash"]);
  assertEquals([keyInfo('"')?.code, keyInfo("~")?.code], ["Quote", "Backquote"]);
});

Deno.test("keyInfo types any other single character with an empty code", () => {
  assertEquals(keyInfo("é"), { key: "é", code: "", keyCode: 0, printable: true, location: 0 });
  assertEquals(keyInfo("😀")?.printable, true, "one code point, two UTF-16 units");
});

Deno.test("keyInfo knows the named keys; modifiers sit on the left", () => {
  assertEquals(keyInfo("Enter"), {
    key: "Enter",
    code: "Enter",
    keyCode: 13,
    printable: false,
    location: 0,
  });
  assertEquals([keyInfo("ArrowDown")?.code, keyInfo("ArrowDown")?.keyCode], ["ArrowDown", 40]);
  assertEquals([keyInfo("Shift")?.code, keyInfo("Shift")?.location], ["ShiftLeft", 1]);
  assertEquals([keyInfo("F5")?.code, keyInfo("F5")?.keyCode], ["F5", 116]);
  assertEquals([keyInfo("F12")?.keyCode], [123]);
  for (const name of NAMED_KEYS) assertEquals(keyInfo(name)?.key, name);
});

Deno.test("keyInfo accepts other cases and common aliases, answering the canonical key", () => {
  assertEquals(keyInfo("enter")?.key, "Enter");
  assertEquals(keyInfo("ESCAPE")?.key, "Escape");
  assertEquals(keyInfo("Esc")?.key, "Escape");
  assertEquals(keyInfo("Return")?.key, "Enter");
  assertEquals(keyInfo("space")?.key, " ");
  assertEquals(keyInfo("Space")?.printable, true);
  assertEquals(keyInfo("down")?.key, "ArrowDown");
  assertEquals(keyInfo("ctrl")?.key, "Control");
  assertEquals(keyInfo("pagedown")?.key, "PageDown");
});

Deno.test("keyInfo refuses unknown names", () => {
  assertEquals(keyInfo("Entr"), undefined);
  assertEquals(keyInfo("ab"), undefined);
  assertEquals(keyInfo(""), undefined);
  assertEquals(keyInfo("Control+a"), undefined);
});
