/**
 * browser_type_text in real Chromium on a field that already has focus: it is typed into without a
 * second focus or any click (the page counts both), and `clear: false` adds the text at the end
 * even when the caret was elsewhere (in a field and in a contenteditable element).
 */
import { callTool, e2eTest } from "../helpers/e2e_fixture.ts";
import { assertEquals } from "../helpers/assert.ts";
import { ok, tabIdOf } from "../helpers/tool_replies.ts";

/** Counts clicks and focus events on #name and #editor, in the page's own world. */
const COUNT_EVENTS = `
window.seen = [];
for (const id of ["name", "editor"]) {
  for (const type of ["click", "focus", "mousedown"]) {
    document.getElementById(id).addEventListener(type, () => window.seen.push(type + " #" + id));
  }
}`;

e2eTest(import.meta.url, "browser_type_text leaves a focused field's focus and caret alone", {
  config: {
    permissions: { "test-app": { permission: "auto" }, browser: { permission: "auto" } },
  },
}, async (t, { e2e }) => {
  const form = await e2e.open("/form?typing=focus");
  const tabId = await tabIdOf(e2e, form);
  const type = async (args: Record<string, unknown>, what: string) =>
    ok(await callTool(e2e, "browser_type_text", { tabId, ...args }), what);
  await form.evaluate(COUNT_EVENTS);
  const seen = () => form.evaluate("window.seen") as Promise<string[]>;

  await t.step("a focused field is typed into without a click or a second focus", async () => {
    await form.focus("#name");
    assertEquals(await seen(), ["focus #name"]);
    await form.evaluate(`(() => {
      const name = document.getElementById("name");
      name.value = "hello";
      name.setSelectionRange(1, 1);
    })()`);
    const typed = await type({ selector: "#name", text: " world", clear: false }, "append");
    assertEquals(typed.value, "hello world");
    assertEquals(await form.locator("#name").inputValue(), "hello world");
    assertEquals(
      await form.evaluate(`(() => {
        const name = document.getElementById("name");
        return [document.activeElement.id, name.selectionStart, name.selectionEnd];
      })()`),
      ["name", 11, 11],
      "the field keeps focus, the caret after the typed text",
    );
    assertEquals(await seen(), ["focus #name"], "no click, no second focus");
    await type({ selector: "#name", text: "new" }, "replace");
    assertEquals(await form.locator("#name").inputValue(), "new");
    assertEquals(await seen(), ["focus #name"]);
  });

  await t.step("clear: false in a contenteditable adds at the end, not at the caret", async () => {
    await form.evaluate(`(() => {
      const editor = document.getElementById("editor");
      editor.innerHTML = "<b>Hi</b> there";
      editor.focus();
      getSelection().collapse(editor.firstChild.firstChild, 0);
    })()`);
    const typed = await type({ selector: "#editor", text: "!", clear: false }, "append rich");
    assertEquals(typed.value, "Hi there!");
    assertEquals(await form.locator("#editor").innerText(), "Hi there!");
    assertEquals((await seen()).filter((s) => s.endsWith("#editor")), ["focus #editor"]);
  });
});
