/**
 * The toolbar icon tells the truth: the number of confirmations waiting for the person (orange),
 * else "off" / "…" while the link is down or connecting (red), else nothing. The tooltip says
 * what is going on.
 */
import type { LinkStatus } from "./connection.ts";

export function showBadge(status: LinkStatus, pending: number): void {
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
  void chrome.action.setBadgeText({ text }).catch(() => {});
  void chrome.action.setBadgeBackgroundColor({ color }).catch(() => {});
  void chrome.action.setTitle({ title: waiting + link + " Click for the hub panel." })
    .catch(() => {});
}
