/**
 * The Sites section: which sites agents' browser tools may read and act on. The default for sites
 * without a rule (a select), the agentTabsOnly switch, the rules (pattern, permission, last use,
 * Remove) and a small form that adds one. Every change goes through the worker to the hub
 * (`setSitePermission`, `setSiteDefaults`), which writes config.json; the hub's error (a pattern
 * it cannot read, say) shows beside the control that sent it.
 */
import { h, type Keyed, reconcile, setText } from "./dom.ts";
import { PERMISSION_LABELS, permissionSelect } from "./permission_select.ts";
import {
  agentTabsHelp,
  defaultHelp,
  EMPTY_PATTERN,
  lastUseText,
  ruleSaved,
} from "./sites_model.ts";
import { switchControl } from "./switch_control.ts";
import { errorText, type ViewContext } from "./view_context.ts";
import type { PanelState, Permission, SiteRuleView } from "../shared/panel_messages.ts";

export interface SitesSection {
  el: HTMLElement;
  update(state: PanelState): void;
  /** Once a second: "last used 2 min ago" moves on. */
  tick(): void;
}

type Row = SiteRuleView & { enabled: boolean };

function ruleView(ctx: ViewContext, first: Row): Keyed<Row> & { tick(): void } {
  let current = first;
  const select = permissionSelect(ctx, {
    label: [h("code", { class: "site-pattern" }, first.pattern)],
    what: first.pattern,
    testid: "site-permission",
    change: (permission) =>
      ctx.send({ type: "setSitePermission", pattern: first.pattern, permission }),
  });
  const lastUse = h("span", { class: "muted small", "data-testid": "site-last-use" });
  const remove = h("button", {
    type: "button",
    class: "small-button",
    "data-testid": "site-remove",
    "aria-label": `Remove the rule for ${first.pattern}`,
    onclick: removeRule,
  }, "Remove");
  const error = h("p", { class: "error", role: "alert", hidden: true });
  const el = h(
    "li",
    { class: "site-rule", "data-testid": "site-rule", "data-pattern": first.pattern },
    select.el,
    h("div", { class: "site-rule-foot" }, lastUse, remove),
    error,
  );

  async function removeRule() {
    remove.disabled = true;
    error.hidden = true;
    try {
      await ctx.send({ type: "setSitePermission", pattern: first.pattern, permission: null });
      ctx.announce(`Removed the rule for ${first.pattern}.`);
    } catch (e) {
      setText(error, `Could not remove the rule: ${errorText(e)}`);
      error.hidden = false;
      ctx.announce(error.textContent!, true);
      remove.disabled = !current.enabled;
    }
  }

  const tick = () => setText(lastUse, lastUseText(current, ctx.now()));
  return {
    el,
    tick,
    update(row) {
      current = row;
      select.update(row.permission, row.enabled);
      remove.disabled = !row.enabled;
      tick();
    },
  };
}

interface AddParts {
  input: HTMLInputElement;
  choice: HTMLSelectElement;
  button: HTMLButtonElement;
  error: HTMLElement;
  /** Whether the hub is reachable now (the button comes back only then). */
  enabled(): boolean;
}

/** The form's submit: checks the pattern is there, sends the rule, clears the input on success. */
function submitRule(ctx: ViewContext, parts: AddParts) {
  const { input, choice, button, error } = parts;
  const fail = (text: string) => {
    setText(error, text);
    error.hidden = false;
    ctx.announce(text, true);
  };
  return async (event: Event) => {
    event.preventDefault();
    const pattern = input.value.trim();
    const permission = choice.value as Permission;
    error.hidden = true;
    if (pattern === "") return fail(EMPTY_PATTERN);
    button.disabled = true;
    try {
      await ctx.send({ type: "setSitePermission", pattern, permission });
      input.value = "";
      ctx.announce(ruleSaved(pattern, permission));
    } catch (e) {
      fail(`Could not add the rule: ${errorText(e)}`);
    } finally {
      button.disabled = !parts.enabled();
    }
  };
}

/** The form that adds a rule: a pattern as the person writes it and its permission. */
function addForm(ctx: ViewContext) {
  const input = h("input", {
    type: "text",
    id: "site-pattern",
    placeholder: "app.example.com",
    autocomplete: "off",
    spellcheck: "false",
    "data-testid": "site-pattern",
  });
  const choice = h(
    "select",
    { "data-testid": "site-new-permission", "aria-label": "Permission of the new rule" },
    (["off", "ask", "auto"] as Permission[]).map((p) =>
      h("option", { value: p }, PERMISSION_LABELS[p])
    ),
  );
  const button = h("button", { type: "submit", "data-testid": "site-add" }, "Add");
  const error = h("p", {
    class: "error",
    role: "alert",
    hidden: true,
    "data-testid": "site-add-error",
  });
  let enabled = false;
  const el = h(
    "form",
    {
      class: "site-add",
      onsubmit: submitRule(ctx, { input, choice, button, error, enabled: () => enabled }),
    },
    h("label", { for: "site-pattern", class: "small" }, "Add a rule for a site"),
    h("div", { class: "site-add-row" }, input, choice, button),
    error,
  );
  return {
    el,
    update(on: boolean) {
      enabled = on;
      input.disabled = !on;
      choice.disabled = !on;
      button.disabled = !on;
    },
  };
}

/** The section around the controls: heading, what rules are, the Rules heading and the empty line. */
function sitesLayout(
  parts: { controls: Node[]; empty: HTMLElement; list: HTMLElement; form: Node },
) {
  return h(
    "section",
    { "aria-labelledby": "sites-heading", "data-testid": "sites", hidden: true },
    h("h2", { id: "sites-heading" }, "Sites"),
    h(
      "p",
      { class: "small muted" },
      "Which sites agents' browser tools may read and act on. A rule names a host " +
        "(example.com), its subdomains (*.example.com), a host with a port, or an origin; the " +
        "most specific rule wins.",
    ),
    ...parts.controls,
    h("h3", { class: "site-rules-heading" }, "Rules"),
    parts.empty,
    parts.list,
    parts.form,
  );
}

/** The agentTabsOnly switch: agents use only tabs in the hub group. */
function agentTabsSwitch(ctx: ViewContext) {
  return switchControl(ctx, {
    id: "agent-tabs-only",
    helpId: "agent-tabs-only-help",
    label: "Only tabs in the hub group",
    testId: "agent-tabs-only",
    initial: false,
    calm: true,
    help: agentTabsHelp,
    change: (next) => ctx.send({ type: "setSiteDefaults", agentTabsOnly: next }),
    failure: (next) => `Could not turn ${next ? "on" : "off"} tabs in the hub group only`,
  });
}

export function sitesSection(ctx: ViewContext): SitesSection {
  const defaultHelpLine = h("p", { class: "small", id: "site-default-help" });
  const fallback = permissionSelect(ctx, {
    label: ["Sites without a rule"],
    what: "sites without a rule",
    testid: "site-default",
    className: "group-permission",
    change: (permission) =>
      ctx.send({ type: "setSiteDefaults", defaultSitePermission: permission }),
  });
  const agentTabs = agentTabsSwitch(ctx);
  const list = h("ul", { class: "site-rules", "data-testid": "site-rules" });
  const empty = h(
    "p",
    { class: "muted small" },
    "No rules yet: every site gets the setting above.",
  );
  const form = addForm(ctx);
  const el = sitesLayout({
    controls: [fallback.el, defaultHelpLine, agentTabs.el],
    empty,
    list,
    form: form.el,
  });
  const views = new Map<string, ReturnType<typeof ruleView>>();

  return {
    el,
    tick: () => views.forEach((v) => v.tick()),
    update(state) {
      const sites = state.hub?.sites;
      el.hidden = !sites;
      if (!sites) return;
      const enabled = state.link.state === "connected";
      fallback.update(sites.defaultPermission, enabled);
      setText(defaultHelpLine, defaultHelp(sites.defaultPermission));
      agentTabs.update(sites.agentTabsOnly, !enabled);
      empty.hidden = sites.rules.length > 0;
      const rows = sites.rules.map((r) => ({ ...r, enabled }));
      reconcile(
        list,
        views as Map<string, Keyed<Row>>,
        rows,
        (r) => r.pattern,
        (r) => ruleView(ctx, r),
      );
      form.update(enabled);
    },
  };
}
