/// <reference lib="deno.ns" />
import { assertEquals, assertThrows } from "../../../../tests/helpers/assert.ts";
import { HubError } from "../../../../protocol/errors.ts";
import type { TabSession } from "../debugger_sessions.ts";
import { insertText, keyEvents, macCommands, pressKeys } from "./trusted_keys.ts";
import { keyInfo } from "../../page/dom_keys.ts";

const brief = (events: Record<string, unknown>[]) =>
  events.map((e) => [e.type, e.key, e.modifiers, e.text ?? null]);

Deno.test("a character key types its text: keyDown with text, keyUp", () => {
  const [down, up] = keyEvents("a", [], false);
  assertEquals(down, {
    type: "keyDown",
    key: "a",
    code: "KeyA",
    windowsVirtualKeyCode: 65,
    nativeVirtualKeyCode: 65,
    location: 0,
    modifiers: 0,
    text: "a",
    unmodifiedText: "a",
  });
  assertEquals(brief([up]), [["keyUp", "a", 0, null]]);
  assertEquals(brief(keyEvents("Enter", [], false)), [
    ["keyDown", "Enter", 0, "\r"],
    ["keyUp", "Enter", 0, null],
  ]);
  assertEquals(brief(keyEvents("Escape", [], false)), [
    ["rawKeyDown", "Escape", 0, null],
    ["keyUp", "Escape", 0, null],
  ]);
});

Deno.test("a chord presses the modifiers first, lets go in reverse, types only with Shift", () => {
  assertEquals(brief(keyEvents("ArrowLeft", ["Control", "Shift"], false)), [
    ["rawKeyDown", "Control", 2, null],
    ["rawKeyDown", "Shift", 10, null],
    ["rawKeyDown", "ArrowLeft", 10, null],
    ["keyUp", "ArrowLeft", 10, null],
    ["keyUp", "Shift", 2, null],
    ["keyUp", "Control", 0, null],
  ]);
  assertEquals(brief(keyEvents("a", ["Control"], false)).slice(1, 2), [
    ["rawKeyDown", "a", 2, null],
  ], "Ctrl+A selects, types no a");
  assertEquals(brief(keyEvents("b", ["Shift", "Shift"], false)), [
    ["rawKeyDown", "Shift", 8, null],
    ["keyDown", "B", 8, "B"],
    ["keyUp", "B", 8, null],
    ["keyUp", "Shift", 0, null],
  ], "Shift types the capital; a modifier named twice is held once");
  assertEquals(keyEvents("Shift", [], false)[0].code, "ShiftLeft");
  assertEquals(keyEvents("Tab", ["Meta", "Alt", "Control", "Shift"], false)[4].modifiers, 15);
});

Deno.test("aliases are the kit's, and an unknown key is INVALID_KEY before any event", () => {
  assertEquals(keyEvents("esc", [], false)[0].key, "Escape");
  assertEquals(keyEvents("space", [], false)[0].text, " ");
  assertThrows(
    () => keyEvents("Entr"),
    (error: unknown) => error instanceof HubError && error.payload.code === "INVALID_KEY",
  );
});

Deno.test("copy, cut and paste chords are INVALID_KEY: a page could read or fill the clipboard", () => {
  const chords: [string, ("Alt" | "Control" | "Meta" | "Shift")[]][] = [
    ["v", ["Control"]],
    ["V", ["Meta"]],
    ["v", ["Control", "Shift"]],
    ["c", ["Control"]],
    ["x", ["Meta"]],
    ["c", ["Meta", "Alt"]],
    ["Insert", ["Shift"]],
    ["Insert", ["Control"]],
    ["Delete", ["Shift"]],
  ];
  for (const [key, modifiers] of chords) {
    for (const mac of [false, true]) {
      assertThrows(
        () => keyEvents(key, modifiers, mac),
        (error: unknown) =>
          error instanceof HubError && error.payload.code === "INVALID_KEY" &&
          /copy, cut or paste chord, and hub never presses those: a page could read the person's clipboard or plant its own text in it\. To put text in a field, type it with browser_type_text/
            .test(error.message),
        `${modifiers}+${key}`,
      );
    }
  }
  // The same keys alone, or with other modifiers, are keys like any other.
  assertEquals(keyEvents("v", [], false)[0].text, "v");
  assertEquals(keyEvents("V", ["Shift"], false)[1].text, "V");
  assertEquals(keyEvents("x", ["Alt"], false)[1].key, "x");
  assertEquals(keyEvents("Insert", [], false)[0].key, "Insert");
  assertEquals(keyEvents("Delete", ["Control"], false)[1].key, "Delete");
  assertEquals(keyEvents("z", ["Meta"], true)[1].commands, ["undo"]);
});

Deno.test("on macOS the editing keys carry the browser's editing commands", () => {
  assertEquals(keyEvents("a", ["Meta"], true)[1].commands, ["selectAll"]);
  assertEquals(keyEvents("ArrowLeft", ["Shift"], true)[1].commands, [
    "moveLeftAndModifySelection",
  ]);
  assertEquals(macCommands(keyInfo("ArrowRight")!, ["Shift", "Alt"]), [
    "moveWordRightAndModifySelection",
  ]);
  assertEquals(macCommands(keyInfo("ArrowUp")!, ["Meta"]), ["moveToBeginningOfDocument"]);
  assertEquals(keyEvents("x", [], true)[0].commands, undefined);
  assertEquals(keyEvents("ArrowLeft", ["Shift"], false)[1].commands, undefined);
});

Deno.test("pressKeys and insertText send Input commands in order", async () => {
  const sent: [string, unknown][] = [];
  const session = {
    tabId: 1,
    send: (method: string, params?: unknown) => {
      sent.push([method, params]);
      return Promise.resolve({});
    },
    children: () => [],
  } as unknown as TabSession;
  await pressKeys(session, "a", ["Control"]);
  await insertText(session, "hi");
  assertEquals(sent.map(([m]) => m), [
    ...Array(4).fill("Input.dispatchKeyEvent"),
    "Input.insertText",
  ]);
  assertEquals(sent[4][1], { text: "hi" });
});
