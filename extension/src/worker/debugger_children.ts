/**
 * Out-of-process frames, reached through child sessions (Target.setAutoAttach with flatten;
 * `sessionId` in chrome.debugger since Chrome 125). A child whose address is not a web page (an
 * extension's frame, such as a password manager's, or a browser page) is detached at once and
 * never runs the hooks: hub reads and drives web pages only, not what the browser or another
 * extension shows inside them.
 */
import { bounded, type CdpParams, isSendTimeout, neverAttachReason } from "./debugger_cdp.ts";
import type { Registry } from "./debugger_registry.ts";
import type { TabSession, TabState } from "./debugger_tab_state.ts";

interface TargetInfo {
  targetId?: string;
  type?: string;
  url?: string;
}

/**
 * Why hub keeps no session in a child frame at `url`, or undefined for a web page's frame: http(s)
 * as for tabs, plus the blank, srcdoc and data: documents web pages make (a blob: address counts as
 * the page that made it). "" (nothing loaded yet) is let through: its first address is checked
 * when Target.targetInfoChanged reports it.
 */
export function childRefusal(url: string): string | undefined {
  if (url === "" || /^(about|data):/i.test(url)) return undefined;
  if (/^blob:/i.test(url)) return neverAttachReason(url.slice("blob:".length));
  return neverAttachReason(url);
}

/** The Target.* events of a tab's session: children come, change address and go. */
export function onTargetEvent(
  reg: Registry,
  state: TabState,
  method: string,
  p: CdpParams,
  parent: string | undefined,
) {
  if (method === "Target.attachedToTarget") childAttached(reg, state, p, parent);
  else if (method === "Target.detachedFromTarget") {
    state.children.delete(String(p.sessionId));
    state.domains.delete(String(p.sessionId));
    state.refused.delete(String(p.sessionId));
  } else if (method === "Target.targetInfoChanged") {
    const info = p.targetInfo as TargetInfo | undefined;
    for (const child of state.children.values()) {
      if (child.targetId !== info?.targetId) continue;
      child.url = String(info.url ?? child.url);
      if (childRefusal(child.url)) refuse(reg, state, child.sessionId, child.url, parent);
    }
  }
}

/** An out-of-process frame's session: remembered, auto-attach for its own frames, its hooks. */
function childAttached(reg: Registry, state: TabState, p: CdpParams, parent: string | undefined) {
  const sessionId = String(p.sessionId ?? "");
  const info = (p.targetInfo ?? {}) as TargetInfo;
  if (!sessionId || info.type !== "iframe") return;
  const url = String(info.url ?? "");
  if (childRefusal(url)) return refuse(reg, state, sessionId, url, parent);
  state.children.set(sessionId, { sessionId, targetId: String(info.targetId ?? ""), url });
  reg.log.debug?.(`Reached an out-of-process frame of tab ${state.tabId}: ${url.slice(0, 200)}`);
  const run = (async () => {
    await autoAttach(state.session, sessionId);
    await runHooks(reg, state, sessionId);
  })().catch((error) => reg.log.warn(`Child session setup failed in tab ${state.tabId}`, error));
  state.childHooks.add(run);
  void run.finally(() => state.childHooks.delete(run));
}

/** Detaches from a child that is not a web page's frame; its events are not passed on. */
function refuse(
  reg: Registry,
  state: TabState,
  sessionId: string,
  url: string,
  parent: string | undefined,
) {
  state.children.delete(sessionId);
  state.domains.delete(sessionId);
  state.refused.add(sessionId);
  reg.log.debug?.(
    `Left a frame of tab ${state.tabId} alone (${childRefusal(url)}): ${url.slice(0, 200)}`,
  );
  void state.session.send("Target.detachFromTarget", { sessionId }, { sessionId: parent })
    .catch(() => {}); // already gone
}

/** Target.setAutoAttach for the page (sessionId undefined) or a child: iframes only, flattened. */
export async function autoAttach(session: TabSession, sessionId?: string) {
  const base = { autoAttach: true, waitForDebuggerOnStart: false, flatten: true };
  try {
    await session.send("Target.setAutoAttach", { ...base, filter: [{ type: "iframe" }] }, {
      sessionId,
    });
  } catch (error) {
    if (isSendTimeout(error)) throw error;
    // An older Chromium without target filters: every child type, iframes kept above.
    await session.send("Target.setAutoAttach", base, { sessionId });
  }
}

/** Every hook for one new session, side by side (they do not depend on each other), bounded. */
export async function runHooks(reg: Registry, state: TabState, sessionId: string | undefined) {
  await Promise.all([...reg.hooks].map(async (hook) => {
    if (!state.live) return;
    try {
      await bounded(hook(state.session, sessionId), reg.sendMs * 2, "a debugger session hook");
    } catch (error) {
      reg.log.warn(`A debugger session hook failed in tab ${state.tabId}`, error);
    }
  }));
}
