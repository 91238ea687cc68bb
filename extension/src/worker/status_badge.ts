/**
 * The toolbar icon tells the truth: the number of confirmations waiting for the person (orange),
 * else "off" / "…" while the link is down or connecting (red), else nothing. The tooltip says
 * what is going on.
 */
import type { LinkStatus } from "./connection.ts";

/**
 * A badge painter. Chromium is told only about changes: every tool call passes through here (its
 * start and end), and each chrome.action call costs a round trip to the browser process.
 */
export function createBadge(): (status: LinkStatus, pending: number) => void {
  let shown = "";
  return (status, pending) => {
    const key = JSON.stringify([
      status.state,
      status.port,
      status.lastError,
      status.replaced,
      pending,
    ]);
    if (key === shown) return;
    shown = key;
    paint(status, pending);
  };
}

function paint(status: LinkStatus, pending: number): void {
  const link = status.state === "connected"
    ? `hub: connected to 127.0.0.1:${status.port}.`
    : status.replaced
    ? `hub: ${status.lastError}`
    : `hub: ${status.state}${status.lastError ? ` (${status.lastError})` : ""}. ` +
      'Is "hub start" running?';
  const waiting = pending === 0
    ? ""
    : `${pending} request${pending === 1 ? "" : "s"} waiting for your answer. `;
  const text = pending > 0
    ? String(pending)
    : status.state === "connected"
    ? ""
    : status.state === "connecting"
    ? "…"
    : "off";
  const color = pending > 0 ? "#c25400" : "#b00020";
  const title = waiting + link + " Click for the hub panel.";
  void chrome.action.setBadgeText({ text }).catch(() => {});
  void chrome.action.setBadgeBackgroundColor({ color }).catch(() => {});
  void chrome.action.setTitle({ title }).catch(() => {});
}
