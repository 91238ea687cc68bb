/// <reference lib="deno.ns" />
import { assertEquals, assertRejects } from "../../../../tests/helpers/assert.ts";
import { hubError } from "../../../../protocol/errors.ts";
import type { DialogInfo } from "../../../../protocol/browser_methods/dialogs.ts";
import type { DownloadReport } from "../../../../protocol/browser_methods/downloads.ts";
import { fakeMethodContext } from "../_test_fixtures.ts";
import type { MethodContext } from "./browser_method.ts";
import { DOWNLOAD_WAIT_MS, isFallbackError, runAction, trustedSession } from "./action_outcome.ts";

const report: DownloadReport = {
  filename: "a.csv",
  url: "http://127.0.0.1/a.csv",
  state: "complete",
  bytes: 3,
};

/** A context whose downloads answer `found` and record how long each ask waited. */
function withDownloads(found?: DownloadReport) {
  const waits: number[] = [];
  const downloads = {
    createdSince: (_since: number, waitMs: number) => {
      waits.push(waitMs);
      return Promise.resolve(found);
    },
  } as unknown as MethodContext["downloads"];
  return { context: fakeMethodContext({ downloads }), waits };
}

Deno.test("an action's value comes back with the download it started", async () => {
  const { context, waits } = withDownloads(report);
  const value = await runAction(7, context, {}, (onPage) => {
    onPage("possible");
    return Promise.resolve({ tabId: 7, clicked: true });
  });
  assertEquals(value, { tabId: 7, clicked: true, download: report });
  // The page saw a link or a form: the download may take a moment to appear.
  assertEquals(waits, [DOWNLOAD_WAIT_MS]);
});

Deno.test("an action whose page saw nothing that navigates does not wait for a download", async () => {
  const { context, waits } = withDownloads();
  const value = await runAction(7, context, {}, (onPage) => {
    onPage("none");
    return Promise.resolve({ tabId: 7, clicked: true });
  });
  assertEquals(value, { tabId: 7, clicked: true });
  assertEquals(waits, [0]);
});

Deno.test("an action that opened a dialog answers with what it knew and the dialog", async () => {
  const dialog: DialogInfo = { type: "confirm", message: "Sure?" };
  const dialogs = {
    race: () => Promise.resolve({ dialog }),
  } as unknown as MethodContext["dialogs"];
  const context = fakeMethodContext({ dialogs });
  const value = await runAction(7, context, {}, (_onPage, partial) => {
    partial({ clicked: true, tag: "button", input: "trusted" });
    return new Promise<{ tabId: number }>(() => {}); // blocked by the dialog
  });
  assertEquals(
    value,
    {
      tabId: 7,
      clicked: true,
      tag: "button",
      input: "trusted",
      dialog,
    } as unknown as typeof value,
  );
});

Deno.test("the DOM path is chosen when the debugger is off, busy or not for this page", async () => {
  for (const code of ["DEBUGGER_OFF", "DEBUGGER_BUSY", "NOT_A_WEB_PAGE"] as const) {
    const sessions = {
      session: () => Promise.reject(hubError(code, "no")),
    } as unknown as MethodContext["sessions"];
    assertEquals(await trustedSession(7, fakeMethodContext({ sessions })), undefined);
  }
  const sessions = {
    session: () => Promise.reject(hubError("TAB_NOT_FOUND", "No tab 7 is open.")),
  } as unknown as MethodContext["sessions"];
  await assertRejects(() => trustedSession(7, fakeMethodContext({ sessions })), Error, "No tab 7");
});

Deno.test("isFallbackError: a hub error with one of the codes, nothing else", () => {
  const codes = ["DEBUGGER_OFF", "DEBUGGER_BUSY"] as const;
  assertEquals(isFallbackError(hubError("DEBUGGER_OFF", "off"), codes), true);
  assertEquals(isFallbackError(hubError("DEBUGGER_BUSY", "busy"), codes), true);
  assertEquals(isFallbackError(hubError("NOT_A_WEB_PAGE", "chrome://"), codes), false);
  assertEquals(
    isFallbackError(Object.assign(new Error("x"), { code: "DEBUGGER_OFF" }), codes),
    false,
  );
});
