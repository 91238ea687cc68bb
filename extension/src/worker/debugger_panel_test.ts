/// <reference lib="deno.ns" />
import { assertEquals } from "../../../tests/helpers/assert.ts";
import { debuggerView } from "./debugger_panel.ts";

Deno.test("the panel's debugger view: the mode and each attached tab by title; gone tabs left out", async () => {
  const facts = {
    mode: () => "auto" as const,
    attachedTabs: () => [4, 9, 7],
    onChange: () => () => {},
  };
  const tabs: Record<number, { title?: string; url?: string }> = {
    4: { title: "Shop", url: "https://shop.example/" },
    7: { url: "https://x.example/" + "a".repeat(400) },
  };
  const view = await debuggerView(
    facts,
    (id) =>
      tabs[id] ? Promise.resolve(tabs[id]) : Promise.reject(new Error(`No tab with id: ${id}.`)),
  );
  assertEquals(view.mode, "auto");
  assertEquals(view.attached.map((t) => [t.tabId, t.title]), [[4, "Shop"], [7, ""]]);
  assertEquals(view.attached[1].url.length, 300);
});
