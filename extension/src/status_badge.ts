/** The toolbar icon tells the truth about the link: no badge when connected, "off" otherwise. */
import type { LinkStatus } from "./connection.ts";

export function showStatus(status: LinkStatus): void {
  const title = status.state === "connected"
    ? `hub: connected to 127.0.0.1:${status.port}`
    : status.replaced
    ? `hub: ${status.lastError}`
    : `hub: ${status.state}${status.lastError ? ` (${status.lastError})` : ""}. ` +
      'Is "hub start" running?';
  const text = status.state === "connected" ? "" : status.state === "connecting" ? "…" : "off";
  void chrome.action.setBadgeText({ text }).catch(() => {});
  void chrome.action.setBadgeBackgroundColor({ color: "#b00020" }).catch(() => {});
  void chrome.action.setTitle({ title }).catch(() => {});
}
