/// <reference lib="deno.ns" />
/**
 * The dialog gate with a fake dialog watch: a tab with a dialog open fails a tab method at once
 * with DIALOG_OPEN, a dialog that opens mid-call fails it unless the method answers with the
 * dialog itself, another tab's dialog changes nothing, and the exempt methods always run.
 */
import { assertEquals } from "../../../../tests/helpers/assert.ts";
import { failureOf, fakeDialogs } from "../_test_fixtures.ts";
import type { DialogInfo, DialogWatch } from "../dialogs.ts";
import { gated, orDialog, withDialogGate } from "./dialog_gate.ts";

const ALERT: DialogInfo = { type: "alert", message: "Saved" };

Deno.test("the tools that answer dialogs or act on no tab are not gated", () => {
  assertEquals(
    [
      "tabs.handleDialog",
      "tabs.list",
      "windows.list",
      "tabs.open",
      "extension.state",
      "downloads.list",
      "network.requests",
    ].map((m) => gated(m as never)),
    [false, false, false, false, false, false, false],
  );
  assertEquals(
    ["dom.click", "page.text", "tabs.close", "tabs.navigate"].map((m) => gated(m as never)),
    [
      true,
      true,
      true,
      true,
    ],
  );
});

Deno.test("a dialog that opens mid-call fails it with DIALOG_OPEN naming the dialog", async () => {
  const { watch, show } = fakeDialogs();
  const never = new Promise<string>(() => {});
  const call = withDialogGate("page.text", { tabId: 3 }, watch, () => never);
  show(4, ALERT); // another tab: nothing happens
  show(3, ALERT);
  const error = await failureOf(call);
  assertEquals(error.payload.code, "DIALOG_OPEN");
  assertEquals(error.payload.details, { tabId: 3, dialog: ALERT });
});

Deno.test("a method that answers with the dialog itself is not failed", async () => {
  const { watch, show } = fakeDialogs();
  let answer!: (value: { dialog: DialogInfo }) => void;
  const own = new Promise<{ dialog: DialogInfo }>((resolve) => (answer = resolve));
  const call = withDialogGate("dom.click", { tabId: 3 }, watch, () => own);
  show(3, ALERT);
  answer({ dialog: ALERT });
  assertEquals(await call, { dialog: ALERT });
});

Deno.test("an open dialog refuses the next call before it runs; exempt methods run", async () => {
  const { watch, show } = fakeDialogs();
  show(3, ALERT);
  let ran = false;
  const refused = withDialogGate("page.text", { tabId: 3 }, watch, () => {
    ran = true;
    return Promise.resolve("text");
  });
  assertEquals((await refused.catch((e) => e)).code, "DIALOG_OPEN");
  assertEquals(ran, false);
  assertEquals(await withDialogGate("tabs.list", {}, watch, () => Promise.resolve(1)), 1);
  // They read what the worker recorded, never the frozen page.
  assertEquals(
    await withDialogGate("network.requests", { tabId: 3 }, watch, () => Promise.resolve(3)),
    3,
  );
  assertEquals(await withDialogGate("downloads.list", {}, watch, () => Promise.resolve(4)), 4);
  assertEquals(await withDialogGate("page.text", { tabId: 5 }, watch, () => Promise.resolve(2)), 2);
});

Deno.test("orDialog: the wait's value, or the dialog that holds it", async () => {
  const none = { race: <T>(_tabId: number, work: Promise<T>) => work.then((value) => ({ value })) };
  assertEquals(await orDialog(none, 3, Promise.resolve(true)), { loaded: true });
  const { watch } = fakeDialogs();
  watch.race =
    (<T>(_tabId: number, _work: Promise<T>) =>
      Promise.resolve({ dialog: { type: "beforeunload", message: "" } })) as DialogWatch["race"];
  assertEquals(await orDialog(watch, 3, new Promise(() => {})), {
    loaded: false,
    dialog: { type: "beforeunload", message: "" },
  });
});
