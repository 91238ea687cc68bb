/**
 * Attaching chrome.debugger to one tab: only web pages; a stale attachment of this extension (a
 * worker restart) is taken over, another client's is DEBUGGER_BUSY; then the page's hooks, its
 * out-of-process frames and the wait for the viewport to settle (Chromium's bar), side by side.
 */
import { hubError } from "../../../protocol/errors.ts";
import { bounded, CdpError, isSendTimeout, neverAttachReason } from "./debugger_cdp.ts";
import { autoAttach, runHooks } from "./debugger_children.ts";
import { changed, forget, type Registry, touch } from "./debugger_registry.ts";
import { settleViewport } from "./debugger_settle.ts";
import { newTabState, type TabState } from "./debugger_tab_state.ts";

/** The protocol version hub asks for. */
const PROTOCOL = "1.3";

/** The tab's address, or TAB_NOT_FOUND / NOT_A_WEB_PAGE for a tab hub does not attach to. */
async function webPageOf(tabId: number): Promise<string> {
  const tab = await chrome.tabs.get(tabId).catch(() => undefined);
  if (!tab) {
    throw hubError("TAB_NOT_FOUND", `No tab ${tabId} is open. Call browser_list_tabs for ids.`);
  }
  const url = tab.url || tab.pendingUrl || "";
  const never = neverAttachReason(url);
  if (!never) return url;
  throw hubError(
    "NOT_A_WEB_PAGE",
    `Tab ${tabId} shows ${never} (${url.slice(0, 200) || "no address"}). hub attaches its ` +
      "debugger only to http(s) web pages: never to browser pages (chrome://, devtools://), " +
      "extensions' pages, the Chrome Web Store, view-source: or file: pages. Navigate the tab " +
      "to a web site first.",
  );
}

/** Attaches the tab and readies its session: hooks run, frames reached, viewport steady. */
export async function attachTab(reg: Registry, tabId: number): Promise<TabState> {
  await reg.detaching.get(tabId);
  await reg.leftOver;
  const url = await webPageOf(tabId);
  const state = newTabState(tabId, reg.sendMs, (s) => touch(reg, s));
  reg.tabs.set(tabId, state);
  try {
    await attachChrome(tabId, reg.sendMs);
  } catch (error) {
    forget(reg, state, "attach_failed");
    throw error;
  }
  const since = Date.now();
  // Chromium's bar is one for the whole browser: already shown (and settled) while another tab is
  // attached, so this attach resizes nothing.
  const barShown = [...reg.tabs.values()].some((s) => s !== state && s.ready && s.live);
  if (!state.live || reg.mode === "off") {
    // Turned off, or the tab closed, while attaching.
    if (reg.tabs.get(tabId) === state) forget(reg, state, "off");
    await bounded(chrome.debugger.detach({ tabId }), reg.sendMs, "detach").catch(() => {});
    if (reg.mode === "off") throw offError();
    throw hubError("TAB_NOT_FOUND", `Tab ${tabId} closed while hub attached its debugger.`);
  }
  state.attached = true;
  reg.log.info(`Attached the debugger to tab ${tabId} (${new URL(url).host})`);
  touch(reg, state);
  changed(reg);
  // The page's hooks, reaching its out-of-process frames and the viewport's settling, side by
  // side: the first attach costs one round of commands, not a row of them.
  await Promise.all([
    runHooks(reg, state, undefined),
    autoAttach(state.session).catch((error) =>
      reg.log.warn(`Could not reach the out-of-process frames of tab ${tabId}`, error)
    ),
    barShown ? undefined : settleViewport(state.session, since),
  ]);
  // The frames there now attached before setAutoAttach answered: their hooks are running.
  if (state.childHooks.size > 0) {
    await bounded(Promise.all([...state.childHooks]), reg.sendMs * 2, "child sessions").catch(
      () => {},
    );
  }
  state.ready = true;
  return state;
}

/** chrome.debugger.attach, bounded; a stale attachment of this extension is taken over. */
async function attachChrome(tabId: number, sendMs: number) {
  const target = { tabId };
  const once = async () => {
    const attach = chrome.debugger.attach(target, PROTOCOL);
    try {
      await bounded(attach, sendMs, `attach to tab ${tabId}`);
    } catch (error) {
      // An attach that answers after its bound is let go of at once.
      if (isSendTimeout(error)) {
        void attach.then(() => chrome.debugger.detach(target)).catch(() => {});
      }
      throw error;
    }
  };
  try {
    await once();
  } catch (first) {
    const text = String((first as Error)?.message ?? first);
    // This extension's own attachment from before a worker restart detaches; another client's
    // does not.
    const ours = /already attached/i.test(text) &&
      await bounded(chrome.debugger.detach(target), sendMs, "detach").then(() => true, () => false);
    if (!ours) throw attachError(tabId, first, sendMs);
    try {
      return await once();
    } catch (second) {
      throw attachError(tabId, second, sendMs);
    }
  }
}

function attachError(tabId: number, error: unknown, sendMs: number) {
  const text = String((error as Error)?.message ?? error).slice(0, 300);
  if (/already attached|another debugger/i.test(text)) {
    return hubError(
      "DEBUGGER_BUSY",
      `Another debugger holds tab ${tabId} (Chromium said: ${text}). Close DevTools or the ` +
        "other debugging extension on that tab, then try again.",
      { tabId },
    );
  }
  if (/cannot access|cannot attach|not allowed/i.test(text)) {
    return hubError(
      "NOT_A_WEB_PAGE",
      `Chromium does not let extensions debug tab ${tabId} (${text}). Navigate the tab to a ` +
        "web site first.",
    );
  }
  if (isSendTimeout(error)) {
    return hubError(
      "TIMEOUT",
      `Attaching the debugger to tab ${tabId} did not finish within ${sendMs} ms. Try again.`,
    );
  }
  return new CdpError(`Could not attach the debugger to tab ${tabId}: ${text}`);
}

export function offError() {
  return hubError(
    "DEBUGGER_OFF",
    "This needs the browser's debugger, and hub's `debugger` setting is `off`. Turn it on with " +
      "`hub config set debugger auto`, or with the Debugger switch in hub's side panel.",
  );
}

/**
 * A worker that restarted lost its sessions while Chromium kept them (and its bar): they are
 * detached once at start. Detaching detaches this extension's own attachments only.
 */
export async function detachLeftOver(reg: Registry) {
  const api = globalThis.chrome?.debugger;
  if (typeof api?.getTargets !== "function") return;
  const targets = await bounded(api.getTargets(), reg.sendMs, "getTargets").catch(() => []);
  await Promise.all(
    targets.filter((t) => t.attached && t.tabId !== undefined && !reg.tabs.has(t.tabId))
      .map((t) =>
        bounded(
          Promise.resolve().then(() => api.detach({ tabId: t.tabId })),
          reg.sendMs,
          "detach",
        ).then(() => reg.log.info(`Detached a debugger session left from before: tab ${t.tabId}`))
          .catch(() => {})
      ),
  );
}
