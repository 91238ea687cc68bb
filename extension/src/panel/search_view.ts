/**
 * Find plugins: a search box (Enter or the button; empty lists every plugin package), the results
 * (name, version, description, author, an Official badge, and Installed or an Install / Update
 * button), the update check, and what running package operations are doing. Install sends the
 * package name; the hub installs it Off, and its card appears under Permissions.
 */
import { h, type Keyed, reconcile, setShownAttribute, setText } from "./dom.ts";
import { relativeTime } from "./format.ts";
import {
  progressOf,
  progressText,
  type ResultRow,
  resultRows,
  updatesSummary,
} from "./package_rows.ts";
import type { PanelState } from "../shared/panel_messages.ts";
import type { SearchResult } from "../../../protocol/packages.ts";
import { errorText, type ViewContext } from "./view_context.ts";

/** A row's own operation: running since, its outcome, or its error. */
interface RowState {
  since?: number;
  message?: string;
  /** The version the message is about: once another is installed, it is stale. */
  version?: string;
  error?: string;
}

interface RowDeps {
  ctx: ViewContext;
  rowState(name: string): RowState;
  act(row: ResultRow): void;
}

function resultView(deps: RowDeps): Keyed<ResultRow & { progress?: string; enabled: boolean }> {
  const name = h("strong", { class: "result-name" });
  const official = h("span", { class: "chip official", "data-testid": "official" }, "Official");
  const version = h("span", { class: "muted small", "data-testid": "result-version" });
  const description = h("p", { class: "small" });
  const author = h("p", { class: "muted small", "data-testid": "result-author" });
  const installed = h("span", { class: "installed small", "data-testid": "installed" });
  const button = h("button", { type: "button", class: "primary", "data-testid": "install" });
  const status = h("p", { class: "small muted", role: "status", "data-testid": "result-status" });
  const error = h("p", { class: "error", hidden: true, "data-testid": "result-error" });
  const el = h(
    "li",
    { class: "result", "data-testid": "result" },
    h("div", { class: "result-head" }, name, official, version),
    description,
    author,
    h("div", { class: "result-action" }, installed, button),
    status,
    error,
  );
  let current: ResultRow | undefined;
  button.addEventListener("click", () => current && deps.act(current));
  return {
    el,
    update(row) {
      current = row;
      el.dataset.name = row.name;
      el.dataset.action = row.action;
      setText(name, row.name);
      official.hidden = !row.official;
      setText(version, `v${row.version}`);
      setText(description, row.description ?? "");
      description.hidden = !row.description;
      setText(author, row.author ? `by ${row.author}` : "");
      author.hidden = !row.author;
      setText(installed, row.installedVersion ? `Installed ${row.installedVersion}` : "");
      installed.hidden = !row.installedVersion;
      const own = deps.rowState(row.name);
      const busy = own.since !== undefined;
      button.hidden = row.action === "installed";
      button.classList.toggle("primary", row.action === "install");
      setText(
        button,
        busy
          ? (row.action === "update" ? "Updating…" : "Installing…")
          : row.action === "update"
          ? `Update to ${row.version}`
          : "Install",
      );
      setShownAttribute(button, "aria-label", `${button.textContent} ${row.name}`);
      button.disabled = busy || !row.enabled;
      const message = own.version === row.installedVersion ? own.message : undefined;
      setText(status, busy ? row.progress ?? "Asking the hub…" : message ?? "");
      setText(error, own.error ?? "");
      error.hidden = !own.error;
    },
  };
}

export interface SearchView {
  el: HTMLElement;
  update(state: PanelState): void;
  /** Once a second: "Checked 3 min ago" moves on. */
  tick(): void;
}

export function searchView(ctx: ViewContext): SearchView {
  let state: PanelState | undefined;
  let result: SearchResult | undefined;
  let searching: number | undefined;
  let checking = false;
  const rowStates = new Map<string, RowState>();
  const views = new Map<string, Keyed<ResultRow & { progress?: string; enabled: boolean }>>();

  const input = h("input", {
    type: "search",
    id: "plugin-search",
    placeholder: "Name or keyword",
    autocomplete: "off",
    spellcheck: "false",
    maxlength: 200,
    "data-testid": "search-input",
  });
  const button = h("button", { type: "submit", "data-testid": "search-button" }, "Search");
  const form = h(
    "form",
    { class: "search-form", role: "search", onsubmit: search },
    h("label", { for: "plugin-search", class: "sr-only" }, "Search plugin packages"),
    input,
    button,
  );
  const updatesText = h("p", { class: "small muted", "data-testid": "updates-summary" });
  const checkButton = h(
    "button",
    { type: "button", class: "small-button", "data-testid": "check-updates", onclick: check },
    "Check for updates",
  );
  const running = h("ul", { class: "progress-list small", "data-testid": "package-progress" });
  const summary = h("p", { class: "small muted", role: "status", "data-testid": "search-summary" });
  const hint = h(
    "p",
    { class: "small muted", "data-testid": "search-hint" },
    "Search the npm registry for hub plugins; an empty search lists them all.",
  );
  const offline = h(
    "p",
    { class: "small muted", hidden: true, "data-testid": "search-offline" },
    "Searching and installing plugins need the hub: connect first.",
  );
  const updatesRow = h("div", { class: "updates-row" }, updatesText, checkButton);
  const error = h("p", { class: "error", hidden: true, "data-testid": "search-error" });
  const list = h("ul", { class: "results", "data-testid": "search-results" });
  const el = h(
    "section",
    { class: "find", "aria-labelledby": "find-heading", "data-testid": "find-plugins" },
    h("h2", { id: "find-heading" }, "Find plugins"),
    form,
    offline,
    hint,
    updatesRow,
    running,
    summary,
    error,
    list,
  );

  function showError(text: string | undefined) {
    setText(error, text ?? "");
    error.hidden = !text;
    if (text) ctx.announce(text, true);
  }

  async function search(event: Event) {
    event.preventDefault();
    if (searching !== undefined) return;
    const query = input.value.trim();
    searching = ctx.now();
    showError(undefined);
    setText(summary, query ? `Searching for “${query}”…` : "Listing every plugin package…");
    render();
    try {
      result = await ctx.send({ type: "searchPlugins", ...(query ? { query } : {}) });
      const n = result.packages.length;
      const found = n === 0
        ? (query ? `No plugin packages match “${query}”.` : "The registry has no plugin packages.")
        : `${n} plugin package${n === 1 ? "" : "s"}${query ? ` for “${query}”` : ""}.`;
      setText(summary, found);
      ctx.announce(found);
    } catch (e) {
      setText(summary, "");
      showError(`Search failed: ${errorText(e)}`);
    } finally {
      searching = undefined;
      render();
    }
  }

  async function check() {
    if (checking) return;
    checking = true;
    showError(undefined);
    render();
    try {
      const found = await ctx.send({ type: "checkUpdates" });
      ctx.announce(updatesSummary(found, (at) => relativeTime(at, ctx.now())));
    } catch (e) {
      showError(`Update check failed: ${errorText(e)}`);
    } finally {
      checking = false;
      render();
    }
  }

  async function act(row: ResultRow) {
    if (rowStates.get(row.name)?.since !== undefined) return;
    rowStates.set(row.name, { since: ctx.now() });
    render();
    let outcome: RowState;
    try {
      const done = row.action === "update"
        ? await ctx.send({ type: "updatePlugin", name: row.name })
        : await ctx.send({ type: "installPlugin", name: row.name });
      const message = row.action === "update"
        ? `Updated to ${done.version}. Its permissions are Off until you review it below.`
        : `Installed ${done.plugin} ${done.version}. It starts Off: review it under ` +
          "Permissions, then allow it.";
      outcome = { message, version: done.version };
      ctx.announce(message);
    } catch (e) {
      outcome = {
        error: `${row.action === "update" ? "Update" : "Install"} failed: ${errorText(e)}`,
      };
      ctx.announce(outcome.error!, true);
    }
    rowStates.set(row.name, outcome);
    render();
  }

  function showUpdates() {
    setText(
      updatesText,
      updatesSummary(state?.hub?.updates, (at) => relativeTime(at, ctx.now())),
    );
  }

  function render() {
    if (!state) return;
    const connected = state.link.state === "connected" && state.hub !== undefined;
    offline.hidden = connected;
    updatesRow.hidden = !connected;
    hint.hidden = !connected || result !== undefined || searching !== undefined;
    input.disabled = !connected;
    button.disabled = !connected || searching !== undefined;
    checkButton.disabled = !connected || checking;
    setText(checkButton, checking ? "Checking…" : "Check for updates");
    showUpdates();
    const lines = progressOf(state.progress).map(progressText);
    running.replaceChildren(...lines.map((line) => h("li", {}, line)));
    running.hidden = lines.length === 0;
    const rows = result ? resultRows(result, state.hub?.plugins ?? []) : [];
    const items = rows.map((row) => {
      const since = rowStates.get(row.name)?.since;
      const line = since === undefined ? undefined : progressOf(state!.progress, {
        operations: ["install", "update"],
        names: [row.name],
        since,
        includeDone: true,
      })[0];
      return { ...row, enabled: connected, ...(line ? { progress: line.message } : {}) };
    });
    const deps: RowDeps = { ctx, rowState: (name) => rowStates.get(name) ?? {}, act };
    reconcile(list, views, items, (r) => r.name, () => resultView(deps));
  }

  return {
    el,
    update(next) {
      state = next;
      render();
    },
    tick: showUpdates,
  };
}
