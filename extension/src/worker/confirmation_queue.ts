/**
 * Confirmations waiting for a person: added on
 * `confirmation.request`, kept in arrival order, and gone once answered here, answered or
 * cancelled elsewhere (the hub ends the invocation), expired, or when the link closes.
 */
import type { ServerParams } from "../../../protocol/events.ts";
import type { PendingConfirmation } from "../shared/panel_messages.ts";

export interface ConfirmationAlerts {
  /** Tells the person (a notification when the panel is closed). */
  show(confirmation: PendingConfirmation): void;
  hide(id: string): void;
}

export interface ConfirmationQueue {
  add(request: ServerParams<"confirmation.request">): void;
  /** Answered, ended or expired: take it out. Unknown ids are ignored. */
  settle(id: string): void;
  /** The link closed: the hub gave up on all of them. */
  clear(): void;
  has(id: string): boolean;
  /** Oldest first. */
  list(): PendingConfirmation[];
}

export interface QueueDeps {
  onChange(): void;
  alerts: ConfirmationAlerts;
  /** Display names of a tool and its plugin, when the hub's sync knows them. */
  names(tool: string, plugin: string): { toolDisplayName?: string; pluginDisplayName?: string };
  clock?: () => number;
}

export function createConfirmationQueue(deps: QueueDeps): ConfirmationQueue {
  const clock = deps.clock ?? Date.now;
  const pending = new Map<
    string,
    { confirmation: PendingConfirmation; timer: ReturnType<typeof setTimeout> }
  >();

  function settle(id: string) {
    const entry = pending.get(id);
    if (!entry) return;
    clearTimeout(entry.timer);
    pending.delete(id);
    deps.alerts.hide(id);
    deps.onChange();
  }

  return {
    add({ id, tool, plugin, parameters, expiresAt, site }) {
      if (pending.has(id)) return;
      const confirmation: PendingConfirmation = {
        id,
        tool,
        plugin,
        ...deps.names(tool, plugin),
        parameters,
        receivedAt: clock(),
        expiresAt,
        ...(site !== undefined ? { site } : {}),
      };
      const timer = setTimeout(() => settle(id), Math.max(0, expiresAt - clock()));
      pending.set(id, { confirmation, timer });
      deps.alerts.show(confirmation);
      deps.onChange();
    },
    settle,
    clear() {
      for (const id of [...pending.keys()]) settle(id);
    },
    has: (id) => pending.has(id),
    list: () => [...pending.values()].map((e) => e.confirmation),
  };
}
