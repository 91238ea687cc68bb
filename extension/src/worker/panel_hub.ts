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
import { isDebuggerMode } from "../../../protocol/debugger_mode.ts";
import { isPlainObject } from "../../../protocol/plain_object.ts";
import { MAX_SITE_PATTERN_CHARS } from "../../../protocol/site_permissions.ts";

export interface PanelHub {
  /** Takes a port if it is a panel's; returns whether it did. */
  accept(port: chrome.runtime.Port): boolean;
  /**
   * Something the panel shows changed: push the state within `withinMs` (default PUSH_MS). A
   * sooner push already planned covers it; a later one is brought forward.
   */
  changed(withinMs?: number): void;
  /** Whether any panel is open. */
  isOpen(): boolean;
}

export interface PanelHubDeps {
  state(): Promise<PanelState>;
  /** Runs a command; resolves with what the reply carries (undefined for most). */
  run(command: PanelCommand): Promise<unknown>;
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

/** Longest package name npm accepts (and the hub's limit for names and specifiers). */
const MAX_NAME = 214;
const MAX_QUERY = 200;
const MAX_PATH = 4096;

function text(value: unknown, max: number, optional = false): boolean {
  if (value === undefined) return optional;
  return typeof value === "string" && value.length <= max && (optional || value.length > 0);
}

/** Why a package command is not well formed, or undefined when it is (null: not one). */
function packageCommandProblem(c: Record<string, unknown>): string | undefined | null {
  switch (c.type) {
    case "searchPlugins":
      return text(c.query, MAX_QUERY, true) ? undefined : `query is text of at most ${MAX_QUERY}`;
    case "installPlugin":
    case "updatePlugin":
    case "removePlugin":
      return text(c.name, MAX_NAME) ? undefined : `needs name (1-${MAX_NAME} characters)`;
    case "checkUpdates":
      return undefined;
    case "openFolder":
      return text(c.path, MAX_PATH) ? undefined : "needs path";
    case "setPluginSettings":
      return typeof c.plugin === "string" && isPlainObject(c.settings)
        ? undefined
        : "needs plugin and settings (an object)";
    default:
      return null;
  }
}

/** Why a Sites section command is not well formed, or undefined when it is (null: not one). */
function siteCommandProblem(c: Record<string, unknown>): string | undefined | null {
  switch (c.type) {
    case "setSitePermission":
      return text(c.pattern, MAX_SITE_PATTERN_CHARS) &&
          (c.permission === null || isPermission(c.permission))
        ? undefined
        : `needs pattern (1-${MAX_SITE_PATTERN_CHARS} characters) and permission (off, ask, auto or null)`;
    case "setSiteDefaults": {
      const fine =
        (c.defaultSitePermission === undefined || isPermission(c.defaultSitePermission)) &&
        (c.agentTabsOnly === undefined || typeof c.agentTabsOnly === "boolean") &&
        (c.defaultSitePermission !== undefined || c.agentTabsOnly !== undefined);
      return fine
        ? undefined
        : "needs defaultSitePermission (off, ask or auto) or agentTabsOnly (boolean)";
    }
    default:
      return null;
  }
}

/** Why a message from a panel is not a command, or undefined when it is one. */
export function commandProblem(message: unknown): string | undefined {
  const m = message as PanelRequest;
  if (typeof m?.requestId !== "number") return "a panel message needs a numeric requestId";
  const c = m.command as Record<string, unknown> | undefined;
  const packageProblem = c ? packageCommandProblem(c) : null;
  if (packageProblem !== null) return packageProblem;
  const siteProblem = c ? siteCommandProblem(c) : null;
  if (siteProblem !== null) return siteProblem;
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
    case "setDebugger":
      return isDebuggerMode(c.mode) ? undefined : "needs mode (auto or off)";
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

/** How soon a change reaches open panels (changes within it go in one push). */
export const PUSH_MS = 25;

export function createPanelHub(deps: PanelHubDeps): PanelHub {
  const ports = new Set<chrome.runtime.Port>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  /** When the planned push runs (performance.now() time). */
  let due = Infinity;

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
    const problem = commandProblem(message);
    const requestId = (message as PanelRequest)?.requestId;
    if (problem) {
      deps.warn("A panel sent a bad command", problem);
      if (typeof requestId === "number") {
        post(port, { type: "reply", requestId, ok: false, error: `Bad command: ${problem}.` });
      }
      return;
    }
    try {
      const result = await deps.run((message as PanelRequest).command);
      post(port, {
        type: "reply",
        requestId,
        ok: true,
        ...(result === undefined ? {} : { result }),
      });
    } catch (error) {
      const code = (error as { code?: unknown })?.code;
      post(port, {
        type: "reply",
        requestId,
        ok: false,
        error: (error as Error)?.message ?? String(error),
        ...(typeof code === "string" ? { code } : {}),
      });
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
    changed(withinMs = PUSH_MS) {
      if (ports.size === 0) return;
      const at = performance.now() + withinMs;
      if (timer !== undefined && due <= at) return;
      clearTimeout(timer);
      due = at;
      timer = setTimeout(() => {
        timer = undefined;
        due = Infinity;
        void push([...ports]).catch((e) => deps.warn("Cannot send the panel its state", e));
      }, withinMs);
    },
    isOpen: () => ports.size > 0,
  };
}
