/**
 * Tells the person about a confirmation when the side panel is not open: a system notification
 * with "Review in panel" and "Deny". It has no Allow button on purpose: a notification can show
 * only a short summary of the parameters, and allowing must happen where the whole call is shown
 * (the panel). The toolbar badge shows the count (status_badge.ts). Every text in it is the
 * plugin's or the agent's, so hidden characters are escaped (protocol/visible_text.ts), and the
 * tool's real name stands beside its title.
 */
import type { ConfirmationAlerts } from "./confirmation_queue.ts";
import { visibleText } from "../../../protocol/visible_text.ts";
import type { PendingConfirmation } from "../shared/panel_messages.ts";
import type { ExtensionLog } from "./extension_log.ts";

export const NOTIFICATION_PREFIX = "hub-confirm:";
/** Notification buttons, in order. */
const BUTTONS = ["review", "deny"] as const;

export interface AlertDeps {
  panelOpen(): boolean;
  /** Sends the answer; throws when the request is no longer waiting. */
  respond(id: string, decision: "deny"): void;
  log: ExtensionLog;
}

export interface NotificationAlerts extends ConfirmationAlerts {
  /** `chrome.notifications.onButtonClicked` (registered at the worker's top level). */
  buttonClicked(notificationId: string, index: number): void;
  /** `chrome.notifications.onClicked`: open the panel to see the parameters. */
  clicked(notificationId: string): void;
  /** The panel opened: it shows everything, so the notifications go. */
  hideAll(): void;
  /** Removes notifications left by an earlier run of the worker. */
  clearStale(): void;
}

/**
 * A one-line summary of the parameters for the notification text, hidden characters escaped.
 * Cut with "…" when long: the notification cannot allow the call, the panel shows all of it.
 */
export function parameterSummary(parameters: Record<string, unknown>, max = 120): string {
  const text = visibleText(
    Object.entries(parameters).map(([key, value]) =>
      `${key}: ${typeof value === "string" ? value : JSON.stringify(value)}`
    ).join(", "),
  );
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/**
 * The notification's title and message: escaped, the real tool name beside its title. A question
 * about a site names the site first: that is what "Allow" would open to agents.
 */
export function notificationText(c: PendingConfirmation): { title: string; message: string } {
  const tool = visibleText(c.tool);
  if (c.site !== undefined) {
    const site = visibleText(c.site);
    return {
      title: `Allow agents to use ${site}?`,
      message: `An agent wants the browser tool ${tool} to read or act on ${site}. Review it in ` +
        "the hub side panel: Allow once, Always allow this site, or Deny.",
    };
  }
  const title = c.toolDisplayName ? visibleText(c.toolDisplayName) : tool;
  const plugin = c.pluginDisplayName
    ? `${visibleText(c.pluginDisplayName)} (${visibleText(c.plugin)})`
    : visibleText(c.plugin);
  return {
    title: title === tool ? `Allow ${tool}?` : `Allow ${title} (${tool})?`,
    message: `An agent wants to run the tool ${tool} of ${plugin}. Review the call in the hub ` +
      "side panel to allow it.",
  };
}

export function createNotificationAlerts(deps: AlertDeps): NotificationAlerts {
  /** Opens the side panel in the last focused window (Chromium allows it after a user action). */
  function openPanel() {
    void chrome.windows.getLastFocused()
      .then((w) => chrome.sidePanel.open({ windowId: w.id! }))
      .catch((error) => deps.log.info("Cannot open the side panel from a notification", error));
  }

  const shown = new Set<string>();
  const idOf = (notificationId: string) =>
    notificationId.startsWith(NOTIFICATION_PREFIX)
      ? notificationId.slice(NOTIFICATION_PREFIX.length)
      : undefined;

  function hide(id: string) {
    if (!shown.delete(id)) return;
    void chrome.notifications.clear(NOTIFICATION_PREFIX + id).catch(() => {});
  }

  return {
    show(c: PendingConfirmation) {
      if (deps.panelOpen()) return;
      shown.add(c.id);
      const { title, message } = notificationText(c);
      chrome.notifications.create(NOTIFICATION_PREFIX + c.id, {
        type: "basic",
        iconUrl: chrome.runtime.getURL("icon128.png"),
        title,
        message,
        contextMessage: parameterSummary(c.parameters),
        buttons: [{ title: "Review in panel" }, { title: "Deny" }],
        requireInteraction: true,
        priority: 2,
      }, () => {
        if (chrome.runtime.lastError) {
          deps.log.warn("Cannot show a notification", chrome.runtime.lastError.message);
        }
      });
    },
    hide,
    buttonClicked(notificationId, index) {
      const id = idOf(notificationId);
      if (id === undefined) return;
      if (BUTTONS[index] === "review") return openPanel();
      hide(id);
      try {
        deps.respond(id, "deny");
      } catch (error) {
        deps.log.info("A notification answered a request that no longer waits", error);
      }
    },
    clicked(notificationId) {
      if (idOf(notificationId) !== undefined) openPanel();
    },
    hideAll() {
      for (const id of [...shown]) hide(id);
    },
    clearStale() {
      // Notifications outlive a stopped worker; requests do not (the hub failed them).
      void chrome.notifications.getAll().then((all) => {
        for (const id of Object.keys(all)) {
          if (id.startsWith(NOTIFICATION_PREFIX) && !shown.has(idOf(id)!)) {
            void chrome.notifications.clear(id).catch(() => {});
          }
        }
      }).catch(() => {});
    },
  };
}
