/**
 * Pending confirmations, oldest first: the tool (its title and, beside it, its real name), its
 * plugin, the parameters (hidden characters escaped, long values folded behind a visible "show
 * all"), a live countdown and Allow / Deny / Always allow. New requests are announced, never
 * focused; a card the state no longer lists disappears, and focus inside it moves to the next one.
 */
import { h, type Keyed, reconcile, setText, textNodes, uid } from "./dom.ts";
import { countdown, countdownWords, foldSummary, showParameters } from "./format.ts";
import { hasHiddenCharacters } from "../../../protocol/visible_text.ts";
import type { PanelState, PendingConfirmation } from "../shared/panel_messages.ts";
import { errorText, type ViewContext } from "./view_context.ts";

/** Under this many ms left, the countdown turns to a warning. */
const HURRY_MS = 30_000;

export interface ConfirmationsView {
  el: HTMLElement;
  update(state: PanelState): void;
  tick(): void;
}

function toolTitle(c: PendingConfirmation): string {
  return c.toolDisplayName ?? c.tool;
}

function pluginTitle(c: PendingConfirmation): string {
  return c.pluginDisplayName ? `${c.pluginDisplayName} (${c.plugin})` : c.plugin;
}

/** The title, and the real name when the title is something else: "Read-only (x__delete)". */
function toolWords(c: PendingConfirmation): string {
  const title = toolTitle(c);
  return title === c.tool ? title : `${title} (${c.tool})`;
}

/** Whether a name, title or parameter of the call holds characters that do not show. */
function hidesCharacters(c: PendingConfirmation): boolean {
  const names = [c.tool, c.toolDisplayName ?? "", c.plugin, c.pluginDisplayName ?? ""];
  return names.some((n) => hasHiddenCharacters(n)) ||
    showParameters(c.parameters).some((p) => p.hidden);
}

/** One parameter value: inline when short; a preview and a "show all" fold when long. */
function valueNode(value: ReturnType<typeof showParameters>[number]): HTMLElement {
  const cls = value.kind === "json" ? "value json" : "value";
  // The value as received: `h` escapes it and marks each escape as it draws.
  if (value.preview === undefined) return h("dd", {}, h("pre", { class: cls }, value.text));
  return h(
    "dd",
    { class: "folded" },
    h("pre", { class: `${cls} preview`, "aria-hidden": "true" }, value.preview),
    h(
      "details",
      {},
      h("summary", { "data-testid": "show-all" }, foldSummary(value)),
      h("pre", { class: cls }, value.text),
    ),
  );
}

export function parametersNode(parameters: Record<string, unknown>): HTMLElement {
  const shown = showParameters(parameters);
  if (shown.length === 0) return h("p", { class: "muted" }, "No parameters.");
  return h(
    "dl",
    { class: "params", "data-testid": "parameters" },
    shown.flatMap((p) => [h("dt", {}, textNodes(p.rawKey, false)), valueNode(p)]),
  );
}

function card(ctx: ViewContext, first: PendingConfirmation): Keyed<PendingConfirmation> & {
  tick(): void;
  heading: HTMLElement;
} {
  let current = first;
  let answered = false;
  const titleId = uid("confirm-title");
  const toolName = h("span", { class: "tool-title" });
  // The tool's real name beside its title, which the plugin chose and can make say anything.
  const realNameCode = h("code", { "data-testid": "tool-name" });
  const realName = h("span", { class: "real-name" }, "tool ", realNameCode);
  const heading = h("h3", { id: titleId, tabindex: "-1" }, toolName, realName);
  const plugin = h("p", { class: "from" });
  const time = h("span", { class: "time", "data-testid": "countdown" });
  const timeLine = h("p", { class: "countdown" }, time);
  const error = h("p", { class: "error", role: "alert", hidden: true });
  const button = (label: string, testid: string, cls: string, title?: string) =>
    h("button", {
      type: "button",
      class: cls,
      "data-testid": testid,
      "aria-describedby": titleId,
      title,
    }, label);
  const allow = button("Allow", "allow", "primary");
  const deny = button("Deny", "deny", "danger");
  const always = button(
    "Always allow",
    "always-allow",
    "secondary",
    "Allow now, and run this tool without asking from now on",
  );
  const buttons = [allow, deny, always];
  const el = h(
    "li",
    { class: "confirm", "data-testid": "confirmation", "aria-labelledby": titleId },
    heading,
    plugin,
    parametersNode(first.parameters),
    hidesCharacters(first)
      ? h(
        "p",
        { class: "note warning hidden-chars", "data-testid": "hidden-chars" },
        h("strong", {}, "Hidden characters. "),
        "This call has characters that do not show or that reorder text; each is shown as a " +
          "code like ⟨U+202E⟩. Allow only if you know why they are there.",
      )
      : undefined,
    timeLine,
    h("div", { class: "actions" }, buttons),
    error,
  );
  el.dataset.id = first.id;

  async function answer(decision: "allow" | "deny", alwaysAllow: boolean) {
    answered = true;
    buttons.forEach((b) => (b.disabled = true));
    error.hidden = true;
    try {
      await ctx.send({ type: "confirm", id: current.id, decision, alwaysAllow });
      el.dataset.answered = decision;
    } catch (e) {
      answered = false;
      setText(error, `Your answer did not reach the hub: ${errorText(e)}`);
      error.hidden = false;
      ctx.announce(error.textContent!, true);
      tick();
    }
  }
  allow.addEventListener("click", () => answer("allow", false));
  deny.addEventListener("click", () => answer("deny", false));
  always.addEventListener("click", () => answer("allow", true));

  function tick() {
    const left = current.expiresAt - ctx.now();
    const expired = left <= 0;
    timeLine.classList.toggle("hurry", !expired && left < HURRY_MS);
    timeLine.classList.toggle("expired", expired);
    setText(
      time,
      expired
        ? "Expired: the hub stopped waiting."
        : `${countdown(current.expiresAt, ctx.now())} left`,
    );
    time.setAttribute(
      "aria-label",
      expired ? "Expired" : `${countdownWords(current.expiresAt, ctx.now())} left to answer`,
    );
    if (!answered) buttons.forEach((b) => (b.disabled = expired));
  }

  return {
    el,
    heading,
    tick,
    update(c) {
      current = c;
      setText(toolName, toolTitle(c));
      setText(realNameCode, c.tool);
      realName.hidden = toolTitle(c) === c.tool;
      setText(plugin, `Plugin: ${pluginTitle(c)}`);
      tick();
    },
  };
}

/** Whether the person is using a form control (then the panel does not scroll under them). */
function busyElsewhere(): boolean {
  const active = document.activeElement;
  return active instanceof HTMLSelectElement || active instanceof HTMLInputElement ||
    active instanceof HTMLTextAreaElement;
}

export function confirmationsView(ctx: ViewContext): ConfirmationsView {
  const headingText = h("span", {});
  const heading = h("h2", { id: "confirmations-heading", tabindex: "-1" }, headingText);
  const list = h("ol", { class: "confirmations", "data-testid": "confirmations" });
  const el = h(
    "section",
    { class: "confirm-section", "aria-labelledby": "confirmations-heading", hidden: true },
    heading,
    list,
  );
  const views = new Map<string, ReturnType<typeof card>>();
  const seen = new Set<string>();

  return {
    el,
    tick: () => views.forEach((v) => v.tick()),
    update(state) {
      const items = state.confirmations;
      let lostFocus = false;
      reconcile(list, views as Map<string, Keyed<PendingConfirmation>>, items, (c) => c.id, (c) => {
        return card(ctx, c);
      }, (_key, view) => {
        if (view.el.contains(document.activeElement)) lostFocus = true;
      });
      el.hidden = items.length === 0;
      setText(headingText, `Waiting for your answer (${items.length})`);
      const added = items.filter((c) => !seen.has(c.id));
      added.forEach((c) => seen.add(c.id));
      if (added.length) {
        const who = added.map((c) => `${toolWords(c)} from ${pluginTitle(c)}`).join("; ");
        ctx.announce(
          `Confirmation needed: ${who}. ${items.length} waiting. ` +
            "Answer with Allow, Deny or Always allow.",
        );
        // Bring it into view, without moving focus, unless the person is busy with a control.
        if (!busyElsewhere()) el.scrollIntoView({ block: "nearest" });
      }
      if (lostFocus) {
        const next = items.length ? views.get(items[0].id)?.heading : undefined;
        (next ?? document.querySelector<HTMLElement>("main"))?.focus();
      }
    },
  };
}
