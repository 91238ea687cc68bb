/**
 * A plugin card's package actions: Update (with the version the last check found), Remove (a
 * second, explicit "Confirm remove" step), and Open folder for a local plugin. While an operation
 * runs, its latest progress line shows; the outcome or the hub's error shows below the buttons.
 */
import type { SyncPlugin } from "../../../protocol/events.ts";
import type { HubView, ProgressEntry } from "../shared/panel_messages.ts";
import { h, setText } from "./dom.ts";
import { packageNameOf, progressOf, progressText, updateFor } from "./package_rows.ts";
import { errorText, type ViewContext } from "./view_context.ts";

export interface PluginActions {
  el: HTMLElement;
  update(plugin: SyncPlugin, hub: HubView, progress: ProgressEntry[], enabled: boolean): void;
}

type Running = { operation: "update" | "remove"; since: number } | undefined;

export function pluginActions(ctx: ViewContext): PluginActions {
  let plugin: SyncPlugin | undefined;
  let running: Running;
  let confirming = false;
  let enabled = true;
  let latest: string | undefined;
  const updateButton = h("button", { type: "button", "data-testid": "update", onclick: update });
  const removeButton = h(
    "button",
    { type: "button", "data-testid": "remove", onclick: askRemove },
    "Remove",
  );
  const openButton = h(
    "button",
    { type: "button", "data-testid": "open-folder", onclick: openFolder },
    "Open folder",
  );
  const confirmText = h("p", { class: "small" });
  const confirmButton = h(
    "button",
    { type: "button", class: "danger", "data-testid": "confirm-remove", onclick: remove },
    "Confirm remove",
  );
  const cancelButton = h(
    "button",
    { type: "button", "data-testid": "cancel-remove", onclick: () => setConfirming(false) },
    "Cancel",
  );
  const confirmBox = h(
    "div",
    { class: "confirm-remove", role: "group", "aria-label": "Confirm removal", hidden: true },
    confirmText,
    h("div", { class: "actions" }, confirmButton, cancelButton),
  );
  const status = h("p", { class: "small muted", role: "status", "data-testid": "action-status" });
  const error = h("p", { class: "error", hidden: true, "data-testid": "action-error" });
  const el = h(
    "div",
    { class: "plugin-actions", "data-testid": "plugin-actions" },
    h("div", { class: "actions" }, updateButton, openButton, removeButton),
    confirmBox,
    status,
    error,
  );

  function setConfirming(on: boolean) {
    confirming = on;
    confirmBox.hidden = !on;
    removeButton.hidden = on;
    if (on) confirmButton.focus();
    else removeButton.focus();
  }

  function askRemove() {
    if (!plugin) return;
    const folder = plugin.dir ? ` (its folder ${plugin.dir} stays)` : "";
    const what = plugin.source === "local" || !plugin.packageName
      ? `drops it from config.json${folder}`
      : `uninstalls the npm package ${plugin.packageName}`;
    setText(
      confirmText,
      `Remove ${plugin.displayName}? This ${what}, and its tools disappear for every agent.`,
    );
    error.hidden = true;
    setConfirming(true);
  }

  /** Runs one operation: busy buttons, its result or error, and an announcement. */
  async function operate(
    operation: "update" | "remove",
    work: () => Promise<string>,
  ) {
    running = { operation, since: ctx.now() };
    error.hidden = true;
    refresh([]);
    try {
      const done = await work();
      setText(status, done);
      ctx.announce(done);
    } catch (e) {
      setText(status, "");
      setText(error, errorText(e));
      error.hidden = false;
      ctx.announce(errorText(e), true);
    } finally {
      running = undefined;
      refresh([]);
    }
  }

  function update() {
    if (!plugin || running) return;
    const name = packageNameOf(plugin);
    const shown = plugin.displayName;
    void operate("update", async () => {
      setText(status, `Updating ${name}…`);
      const result = await ctx.send({ type: "updatePlugin", name });
      return result.previousVersion && result.previousVersion !== result.version
        ? `Updated ${shown} from ${result.previousVersion} to ${result.version}. Its ` +
          "permissions are Off until you review the new version."
        : `${shown} ${result.version} is installed.`;
    });
  }

  function remove() {
    if (!plugin || running) return;
    const name = packageNameOf(plugin);
    const shown = plugin.displayName;
    confirming = false;
    confirmBox.hidden = true;
    void operate("remove", async () => {
      setText(status, `Removing ${name}…`);
      await ctx.send({ type: "removePlugin", name });
      return `Removed ${shown}.`;
    });
  }

  async function openFolder() {
    if (!plugin?.dir) return;
    error.hidden = true;
    try {
      const { opened } = await ctx.send({ type: "openFolder", path: plugin.dir });
      setText(status, `Opened ${opened}.`);
    } catch (e) {
      setText(error, `Could not open the folder: ${errorText(e)}`);
      error.hidden = false;
    }
  }

  function refresh(progress: ProgressEntry[]) {
    const busy = running !== undefined;
    updateButton.hidden = latest === undefined;
    setText(updateButton, latest ? `Update to ${latest}` : "Update");
    openButton.hidden = !plugin?.dir;
    removeButton.hidden = confirming;
    for (const b of [updateButton, removeButton, confirmButton, openButton]) {
      b.disabled = busy || !enabled;
    }
    if (running && plugin) {
      const line = progressOf(progress, {
        operations: [running.operation],
        names: [packageNameOf(plugin), plugin.name],
        since: running.since,
        includeDone: true,
      })[0];
      if (line) setText(status, progressText(line));
    }
  }

  return {
    el,
    update(p, hub, progress, isEnabled) {
      plugin = p;
      enabled = isEnabled;
      latest = updateFor(p, hub.updates)?.latestVersion;
      refresh(progress);
    },
  };
}
