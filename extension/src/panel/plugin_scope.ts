/**
 * What a plugin may do, shown on its card before it is allowed (its permission is Off, or a new
 * version waits for review): the sites it runs on (and never on), marked in plain words when they
 * are every site, and each tool with what it says it does. This is what the person agrees to when
 * they choose Ask me or Auto.
 */
import type { SyncPlugin } from "../../../protocol/events.ts";
import { broadNotice } from "../../../protocol/broad_patterns.ts";
import { h } from "./dom.ts";
import { baseToolName, plural } from "./format.ts";

/** Whether the card should show what the plugin may do. */
export function showsScope(plugin: SyncPlugin): boolean {
  return plugin.permission === "off" || plugin.needsReview;
}

export function scopeNode(plugin: SyncPlugin): HTMLElement {
  const patterns = (list: string[]) =>
    h("ul", { class: "patterns" }, list.map((p) => h("li", {}, h("code", {}, p))));
  const tools = plugin.tools.length
    ? h(
      "ul",
      { class: "scope-tools", "data-testid": "scope-tools" },
      plugin.tools.map((t) =>
        h(
          "li",
          { "data-testid": `scope-tool-${baseToolName(plugin.name, t.name)}` },
          h("span", { class: "scope-tool-name" }, t.displayName),
          " ",
          h("code", {}, t.name),
          t.description ? h("p", { class: "muted small" }, t.description) : undefined,
        )
      ),
    )
    : h("p", { class: "muted small" }, "It has no tools.");
  return h(
    "div",
    { class: "scope", "data-testid": "plugin-scope" },
    h(
      "p",
      { class: "scope-lead" },
      h("strong", {}, "Before you allow it: "),
      "choosing Ask me or Auto lets agents use these tools in your logged-in tabs.",
    ),
    broadNote(plugin),
    h("p", { class: "small scope-label" }, "Runs in tabs on"),
    h("div", { "data-testid": "scope-patterns" }, patterns(plugin.urlPatterns)),
    plugin.excludePatterns.length
      ? [h("p", { class: "small scope-label" }, "Never on"), patterns(plugin.excludePatterns)]
      : undefined,
    h("p", { class: "small scope-label" }, `Its ${plural(plugin.tools.length, "tool")}`),
    tools,
    h(
      "p",
      { class: "muted small", "data-testid": "scope-off" },
      "While it is Off, its code is not put into any tab. Turning it Off again takes it out of " +
        "open tabs at once; anything it already started in a page ends when you reload that page.",
    ),
  );
}

/** A plugin on every site (or a whole top-level domain) says so in plain words. */
function broadNote(plugin: SyncPlugin): HTMLElement | undefined {
  const notice = broadNotice(plugin.urlPatterns);
  if (!notice) return undefined;
  return h(
    "p",
    { class: "note warning", "data-testid": "scope-broad" },
    h("strong", {}, "Every site. "),
    notice,
  );
}
