/**
 * The service worker's end of the side panel: every open panel (one per window, or the page
 * opened in a tab) holds a runtime port named PANEL_PORT. Each gets the whole state on connect
 * and again after every change (coalesced), and sends commands that are answered one by one.
 */
import {
  PANEL_PORT,
  type PanelCommand,
  type PanelMessage,
  type PanelRequest,
  type PanelState,
} from "../shared/panel_messages.ts";
import { isPermission } from "../../../protocol/permission.ts";

export interface PanelHub {
  /** Takes a port if it is a panel's; returns whether it did. */
  accept(port: chrome.runtime.Port): boolean;
  /** Something the panel shows changed: push the state soon. */
  changed(): void;
  /** Whether any panel is open. */
  isOpen(): boolean;
}

export interface PanelHubDeps {
  state(): Promise<PanelState>;
  run(command: PanelCommand): Promise<void>;
  /** A panel opened (the first or another). */
  onOpen?(): void;
  warn(message: string, detail?: unknown): void;
  /** Whether a port comes from the panel page (default: our extension's panel.html). */
  isPanelPage?(port: chrome.runtime.Port): boolean;
}

/**
 * Only the extension's own panel page may answer confirmations: a port from a web page (through
 * a content script of this extension, which shares its id) is refused.
 */
export function fromPanelPage(port: chrome.runtime.Port): boolean {
  return port.sender?.id === chrome.runtime.id &&
    (port.sender?.url ?? "").startsWith(chrome.runtime.getURL("panel.html"));
}

/** Why a message from a panel is not a command, or undefined when it is one. */
export function commandError(message: unknown): string | undefined {
  const m = message as PanelRequest;
  if (typeof m?.requestId !== "number") return "a panel message needs a numeric requestId";
  const c = m.command as Record<string, unknown> | undefined;
  const permissionOk = isPermission(c?.permission);
  switch (c?.type) {
    case "setPluginPermission":
      return typeof c.plugin === "string" && permissionOk ? undefined : "needs plugin, permission";
    case "setToolPermission":
      return typeof c.plugin === "string" && typeof c.tool === "string" && permissionOk
        ? undefined
        : "needs plugin, tool, permission";
    case "setSkipPermissions":
      return typeof c.enabled === "boolean" ? undefined : "needs enabled (boolean)";
    case "confirm":
      return typeof c.id === "string" && (c.decision === "allow" || c.decision === "deny")
        ? undefined
        : "needs id and decision (allow or deny)";
    case "reconnect":
      return undefined;
    default:
      return `unknown command ${JSON.stringify(c?.type)}`;
  }
}

export function createPanelHub(deps: PanelHubDeps): PanelHub {
  const ports = new Set<chrome.runtime.Port>();
  let timer: ReturnType<typeof setTimeout> | undefined;

  function post(port: chrome.runtime.Port, message: PanelMessage) {
    try {
      port.postMessage(message);
    } catch {
      ports.delete(port); // closed meanwhile
    }
  }

  async function push(targets: Iterable<chrome.runtime.Port>) {
    const state = await deps.state();
    for (const port of targets) post(port, { type: "state", state });
  }

  async function handle(port: chrome.runtime.Port, message: unknown) {
    const problem = commandError(message);
    const requestId = (message as PanelRequest)?.requestId;
    if (problem) {
      deps.warn("A panel sent a bad command", problem);
      if (typeof requestId === "number") {
        post(port, { type: "reply", requestId, ok: false, error: `Bad command: ${problem}.` });
      }
      return;
    }
    try {
      await deps.run((message as PanelRequest).command);
      post(port, { type: "reply", requestId, ok: true });
    } catch (error) {
      post(port, { type: "reply", requestId, ok: false, error: (error as Error).message });
    }
  }

  return {
    accept(port) {
      if (port.name !== PANEL_PORT) return false;
      if (!(deps.isPanelPage ?? fromPanelPage)(port)) {
        deps.warn("Refused a panel connection from outside the panel page", port.sender?.url);
        port.disconnect();
        return true;
      }
      ports.add(port);
      port.onDisconnect.addListener(() => ports.delete(port));
      port.onMessage.addListener((message) => void handle(port, message));
      deps.onOpen?.();
      void push([port]).catch((e) => deps.warn("Cannot send the panel its state", e));
      return true;
    },
    changed() {
      if (ports.size === 0 || timer !== undefined) return;
      timer = setTimeout(() => {
        timer = undefined;
        void push([...ports]).catch((e) => deps.warn("Cannot send the panel its state", e));
      }, 25);
    },
    isOpen: () => ports.size > 0,
  };
}
