/**
 * Permissions: the skip-permissions switch, then one group per plugin (tab state, matching tabs,
 * a needs-review note, the plugin's permission and a collapsible list of its tools, each with its
 * own permission), then the built-in browser tools grouped the same way.
 */
import {
  h,
  type Keyed,
  reconcile,
  replaceChildren,
  setShownAttribute,
  setText,
  uid,
} from "./dom.ts";
import { baseToolName, plural } from "./format.ts";
import type { HubView, PanelState, Permission, ProgressEntry } from "../shared/panel_messages.ts";
import { permissionSelect } from "./permission_select.ts";
import { pluginActions } from "./plugin_actions.ts";
import { scopeNode, showsScope } from "./plugin_scope.ts";
import { settingsForm } from "./settings_form.ts";
import { skipSwitch } from "./skip_switch.ts";
import type { SyncPlugin, SyncTool, TabStateChange } from "../../../protocol/events.ts";
import { BROWSER_GROUP } from "../../../protocol/call_contract.ts";
import type { ViewContext } from "./view_context.ts";

/** A plugin, or the browser tools, as one group of the view. */
interface Group {
  name: string;
  displayName: string;
  version?: string;
  description?: string;
  permission: Permission;
  tools: SyncTool[];
  disabledTools: string[];
  plugin?: SyncPlugin;
  tabs?: TabStateChange;
  hub: HubView;
  progress: ProgressEntry[];
  enabled: boolean;
  /** Skip-permissions is on: tools set to "ask" run as "auto". */
  skip: boolean;
}

const TAB_STATE_TEXT: Record<TabStateChange["state"], { glyph: string; text: string }> = {
  ready: { glyph: "●", text: "Ready" },
  unavailable: {
    glyph: "◐",
    text: "Unavailable: a matching tab is open, but the site is not ready",
  },
  closed: { glyph: "○", text: "Closed: no open tab matches" },
};

function tabStateNode(group: Group): HTMLElement[] {
  const plugin = group.plugin!;
  const change = group.tabs ?? { plugin: plugin.name, state: "closed", tabs: [] };
  const { glyph, text } = TAB_STATE_TEXT[change.state];
  const count = change.tabs.length ? ` · ${plural(change.tabs.length, "tab")}` : "";
  const line = h(
    "p",
    { class: "tab-state", "data-state": change.state, "data-testid": "tab-state" },
    h("span", { class: "glyph", "aria-hidden": "true" }, glyph),
    ` ${text}${change.state === "ready" ? count : ""}`,
  );
  const hint = change.state === "closed" && plugin.urlPatterns.length
    ? h("p", { class: "muted small" }, `Open a tab on ${plugin.urlPatterns.join(" or ")}.`)
    : undefined;
  const tabs = change.tabs.length
    ? h(
      "ul",
      { class: "tabs", "data-testid": "tabs" },
      change.tabs.map((t) =>
        h(
          "li",
          { "data-tab-id": t.tabId },
          h("span", { class: "tab-title" }, t.title || "(untitled)", t.ready ? "" : " (not ready)"),
          h("span", { class: "url" }, t.url),
        )
      ),
    )
    : undefined;
  const nodes: (HTMLElement | undefined)[] = [line, hint, tabs];
  return nodes.filter((n): n is HTMLElement => n !== undefined);
}

function reviewNote(plugin: SyncPlugin): HTMLElement {
  const reviewed = plugin.reviewedVersion ? ` (you reviewed ${plugin.reviewedVersion})` : "";
  // The hub says why; a hub before `reviewReason` only ever reset for a new version.
  const what = plugin.reviewReason === "source"
    ? "It now comes from another package or folder than the one you reviewed"
    : `Version ${plugin.version} is new${reviewed}`;
  return h(
    "p",
    { class: "note warning", "data-testid": "needs-review" },
    h("strong", {}, "Needs review. "),
    `${what}, so its permissions were reset to Off. ` +
      "Check what it may do below, then choose its permission (or review it with " +
      "plugin_inspect and plugin_mark_reviewed).",
  );
}

function toolRow(ctx: ViewContext, group: () => Group, tool: SyncTool): Keyed<SyncTool> {
  const base = group().name === BROWSER_GROUP ? tool.name : baseToolName(group().name, tool.name);
  const control = permissionSelect(ctx, {
    label: [h("span", {}, tool.displayName), " ", h("code", {}, base)],
    what: tool.displayName,
    testid: `tool-permission-${base}`,
    className: "tool",
    change: (permission) =>
      ctx.send({
        type: "setToolPermission",
        plugin: group().name,
        tool: group().name === BROWSER_GROUP ? tool.name : base,
        permission,
      }),
  });
  const el = h("li", { "data-testid": `tool-${base}` }, control.el);
  return {
    el,
    update(t) {
      setShownAttribute(control.el.querySelector("label")!, "title", t.description);
      // What is stored: the tool's own setting, else its plugin's default (the effective value
      // differs while skip-permissions is on or a new version awaits review).
      control.update(t.override ?? group().permission, group().enabled);
      el.classList.toggle("own-setting", t.override !== undefined);
    },
  };
}

function groupCard(ctx: ViewContext, first: Group): Keyed<Group> {
  let current = first;
  const headingId = uid("group");
  const title = h("h3", { id: headingId });
  const version = h("span", { class: "muted version" });
  const about = h("div", { class: "about" });
  const control = permissionSelect(ctx, {
    label: [first.name === BROWSER_GROUP ? "Default for browser tools" : "Default for its tools"],
    what: first.displayName,
    testid: "plugin-permission",
    className: "group-permission",
    change: (permission) =>
      ctx.send({ type: "setPluginPermission", plugin: current.name, permission }),
  });
  const toolsSummary = h("summary", {});
  const toolList = h("ul", { class: "tool-list" });
  const disabledList = h("ul", { class: "tool-list disabled-tools" });
  const skipNote = h(
    "p",
    { class: "muted small", hidden: true },
    "Skip confirmations is on, so tools set to “Ask me” run without asking until you turn it off.",
  );
  const tools = h("details", { class: "tools" }, toolsSummary, skipNote, toolList, disabledList);
  const rows = new Map<string, Keyed<SyncTool>>();
  const isPlugin = first.plugin !== undefined;
  // Who a group is, beside the name it gives itself (a display name can say anything, even
  // "Browser tools"): the built-in group says so; a plugin shows its name and where it comes from.
  const source = h("span", { class: "chip", "data-testid": "plugin-source", hidden: true });
  const identity = isPlugin
    ? h("code", { class: "muted plugin-name", "data-testid": "plugin-name" }, first.name)
    : h("span", { class: "chip builtin", "data-testid": "builtin" }, "Built into the hub");
  const scope = h("div", { class: "scope-slot" });
  const settings = isPlugin ? settingsForm(ctx) : undefined;
  const actions = isPlugin ? pluginActions(ctx) : undefined;
  const el = h(
    "article",
    { class: "group", "data-testid": `plugin-${first.name}`, "aria-labelledby": headingId },
    h("div", { class: "group-head" }, title, version, identity, source),
    about,
    scope,
    control.el,
    tools,
    settings?.el,
    actions?.el,
  );
  return {
    el,
    update(g) {
      current = g;
      setText(title, g.displayName);
      setText(version, g.version ? `v${g.version}` : "");
      const parts: HTMLElement[] = [];
      if (g.plugin) parts.push(...tabStateNode(g));
      else if (g.description) parts.push(h("p", { class: "muted small" }, g.description));
      if (g.plugin?.needsReview) parts.push(reviewNote(g.plugin));
      replaceChildren(about, parts);
      if (g.plugin) {
        replaceChildren(scope, showsScope(g.plugin) ? scopeNode(g.plugin) : undefined);
        setText(
          source,
          g.plugin.source === "local"
            ? "Local plugin"
            : g.plugin.packageName
            ? `Package ${g.plugin.packageName}`
            : "",
        );
        source.hidden = !g.plugin.source;
        settings?.update(g.plugin, g.enabled);
        actions?.update(g.plugin, g.hub, g.progress, g.enabled);
      }
      control.update(g.permission, g.enabled);
      const count = g.tools.length + g.disabledTools.length;
      setText(toolsSummary, `Tools (${count})`);
      skipNote.hidden = !g.skip;
      reconcile(toolList, rows, g.tools, (t) => t.name, (t) => toolRow(ctx, () => current, t));
      replaceChildren(
        disabledList,
        g.disabledTools.map((name) =>
          h(
            "li",
            { class: "disabled-tool", "data-testid": `tool-${name}` },
            h("code", {}, name),
            h("span", { class: "muted small" }, " Disabled in config.json (disabledBrowserTools)"),
          )
        ),
      );
    },
  };
}

function groupsOf(hub: HubView, state: PanelState, enabled: boolean): Group[] {
  const plugins: Group[] = hub.plugins.map((p) => ({
    name: p.name,
    displayName: p.displayName,
    version: p.version,
    permission: p.permission,
    tools: p.tools,
    disabledTools: [],
    plugin: p,
    tabs: state.tabs[p.name],
    hub,
    progress: state.progress,
    enabled,
    skip: hub.skipPermissions,
  }));
  const browser: Group = {
    name: BROWSER_GROUP,
    displayName: "Browser tools",
    description: "Built-in tools that work on any tab: read, click, type, screenshot and more.",
    permission: hub.browserPermission,
    // Disabled tools cannot run whatever their permission: listed apart, without a selector.
    tools: hub.browserTools.filter((t) => !hub.disabledBrowserTools.includes(t.name)),
    disabledTools: hub.disabledBrowserTools,
    hub,
    progress: state.progress,
    enabled,
    skip: hub.skipPermissions,
  };
  return [...plugins, browser];
}

export interface PluginsView {
  el: HTMLElement;
  update(state: PanelState): void;
}

export function pluginsView(ctx: ViewContext): PluginsView {
  const skip = skipSwitch(ctx);
  const empty = h("p", { class: "muted notice", "data-testid": "no-hub" });
  const list = h("div", { class: "groups", "data-testid": "plugins" });
  const noPlugins = h(
    "p",
    { class: "muted small", hidden: true },
    "No plugins installed. Search above, or run “hub plugin install <name>”.",
  );
  const el = h(
    "section",
    { "aria-labelledby": "permissions-heading" },
    h("h2", { id: "permissions-heading" }, "Permissions"),
    empty,
    skip.el,
    noPlugins,
    list,
  );
  const cards = new Map<string, Keyed<Group>>();
  return {
    el,
    update(state) {
      const hub = state.hub;
      const enabled = state.link.state === "connected";
      empty.hidden = hub !== undefined && enabled;
      setText(
        empty,
        hub
          ? "Not connected: showing what the hub last said. Changes need a connection."
          : enabled
          ? "Waiting for the hub to send its plugins and tools…"
          : "Plugins, tools and their permissions appear here once the extension is " +
            "connected to the hub.",
      );
      skip.el.hidden = !hub;
      if (hub) skip.update(hub.skipPermissions, enabled, hub.skipPermissionsForced);
      noPlugins.hidden = !hub || hub.plugins.length > 0;
      const groups = hub ? groupsOf(hub, state, enabled) : [];
      reconcile(list, cards, groups, (g) => g.name, (g) => groupCard(ctx, g));
    },
  };
}
