/**
 * Pending confirmations, oldest first: the tool (its title and, beside it, its real name), its
 * plugin, the parameters (hidden characters escaped, long values folded behind a visible "show
 * all"), a live countdown and Allow / Deny / Always allow. New requests are announced, never
 * focused; a card the state no longer lists disappears, and focus inside it moves to the next one.
 * A question about a site ("Allow agents to use app.example.com?") has Allow once, Always allow
 * this site and Deny, with the call that asked folded under it.
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

/** What the announcement says of one request. */
function question(c: PendingConfirmation): string {
  return c.site === undefined
    ? `${toolWords(c)} from ${pluginTitle(c)}`
    : `allow agents to use ${c.site} (for ${c.tool})`;
}

/** Whether a name, title or parameter of the call holds characters that do not show. */
function hidesCharacters(c: PendingConfirmation): boolean {
  const names = [
    c.tool,
    c.toolDisplayName ?? "",
    c.plugin,
    c.pluginDisplayName ?? "",
    c.site ?? "",
  ];
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

/** The card's key: a site question after the call's tool question (same id) gets its own card. */
export function confirmationKey(c: PendingConfirmation): string {
  return c.site === undefined ? c.id : `${c.id} site ${c.site}`;
}

type ButtonName = "allow" | "always" | "deny";

/** What a question's buttons say, and their order (Deny is always "Deny"). */
interface CardButtons {
  allow: string;
  always: string;
  /** The Always button's tooltip: what it does beyond this call. */
  alwaysTitle: string;
  order: ButtonName[];
}

/** What a card says above and on its buttons: the tool question's or the site question's. */
interface CardTop {
  nodes: HTMLElement[];
  heading: HTMLElement;
  buttons: CardButtons;
  update(c: PendingConfirmation): void;
}

/** "Echo (test-app__echo)", from Plugin: Test App (test-app), then the parameters. */
function toolTop(titleId: string, first: PendingConfirmation): CardTop {
  const toolName = h("span", { class: "tool-title" });
  // The tool's real name beside its title, which the plugin chose and can make say anything.
  const realNameCode = h("code", { "data-testid": "tool-name" });
  const realName = h("span", { class: "real-name" }, "tool ", realNameCode);
  const heading = h("h3", { id: titleId, tabindex: "-1" }, toolName, realName);
  const plugin = h("p", { class: "from" });
  return {
    nodes: [heading, plugin, parametersNode(first.parameters)],
    heading,
    buttons: {
      allow: "Allow",
      always: "Always allow",
      alwaysTitle: "Allow now, and run this tool without asking from now on",
      order: ["allow", "deny", "always"],
    },
    update(c) {
      setText(toolName, toolTitle(c));
      setText(realNameCode, c.tool);
      realName.hidden = toolTitle(c) === c.tool;
      setText(plugin, `Plugin: ${pluginTitle(c)}`);
    },
  };
}

/** "Allow agents to use app.example.com?", the tool that asks, its call folded under it. */
function siteTop(titleId: string, first: PendingConfirmation, site: string): CardTop {
  const heading = h(
    "h3",
    { id: titleId, tabindex: "-1", class: "site-question" },
    // One flex item, so the question reads as one line of text.
    h("span", {}, "Allow agents to use ", h("code", { "data-testid": "site-name" }, site), "?"),
  );
  const toolCode = h("code", { "data-testid": "tool-name" });
  const from = h(
    "p",
    { class: "from" },
    "The browser tool ",
    toolCode,
    " wants to read or act on a page of this site. Allow once covers this call only.",
  );
  const call = h(
    "details",
    { class: "site-call", "data-testid": "site-call" },
    h("summary", {}, "The call"),
    parametersNode(first.parameters),
  );
  return {
    nodes: [heading, from, call],
    heading,
    buttons: {
      allow: "Allow once",
      always: "Always allow this site",
      alwaysTitle:
        `Allow now, and let agents use ${site} without asking from now on (a rule in Sites)`,
      order: ["allow", "always", "deny"],
    },
    update: (c) => setText(toolCode, c.tool),
  };
}

/** The card's buttons, named, and all of them in the order the question puts them. */
function cardButtons(titleId: string, words: CardButtons) {
  const button = (label: string, testid: string, cls: string, title?: string) =>
    h("button", {
      type: "button",
      class: cls,
      "data-testid": testid,
      "aria-describedby": titleId,
      title,
    }, label);
  const named: Record<ButtonName, HTMLButtonElement> = {
    allow: button(words.allow, "allow", "primary"),
    deny: button("Deny", "deny", "danger"),
    always: button(words.always, "always-allow", "secondary", words.alwaysTitle),
  };
  return { ...named, all: words.order.map((name) => named[name]) };
}

/** The warning a card shows when a name, title or parameter hides characters. */
function hiddenCharsNote(c: PendingConfirmation): HTMLElement | undefined {
  if (!hidesCharacters(c)) return undefined;
  return h(
    "p",
    { class: "note warning hidden-chars", "data-testid": "hidden-chars" },
    h("strong", {}, "Hidden characters. "),
    "This call has characters that do not show or that reorder text; each is shown as a " +
      "code like ⟨U+202E⟩. Allow only if you know why they are there.",
  );
}

/** The countdown line: time left (a warning under HURRY_MS), or expired. Whether it expired. */
function showTimeLeft(timeLine: HTMLElement, time: HTMLElement, expiresAt: number, now: number) {
  const left = expiresAt - now;
  const expired = left <= 0;
  timeLine.classList.toggle("hurry", !expired && left < HURRY_MS);
  timeLine.classList.toggle("expired", expired);
  setText(
    time,
    expired ? "Expired: the hub stopped waiting." : `${countdown(expiresAt, now)} left`,
  );
  time.setAttribute(
    "aria-label",
    expired ? "Expired" : `${countdownWords(expiresAt, now)} left to answer`,
  );
  return expired;
}

/** One card: its countdown ticks, and its heading takes focus when the card before it goes. */
type CardView = Keyed<PendingConfirmation> & { tick(): void; heading: HTMLElement };

function card(ctx: ViewContext, first: PendingConfirmation): CardView {
  let current = first;
  let answered = false;
  const site = first.site;
  const titleId = uid("confirm-title");
  const top = site === undefined ? toolTop(titleId, first) : siteTop(titleId, first, site);
  const time = h("span", { class: "time", "data-testid": "countdown" });
  const timeLine = h("p", { class: "countdown" }, time);
  const error = h("p", { class: "error", role: "alert", hidden: true });
  const { allow, deny, always, all: buttons } = cardButtons(titleId, top.buttons);
  const el = h(
    "li",
    { class: "confirm", "data-testid": "confirmation", "aria-labelledby": titleId },
    top.nodes,
    hiddenCharsNote(first),
    timeLine,
    h("div", { class: "actions" }, buttons),
    error,
  );
  el.dataset.id = first.id;
  if (site !== undefined) el.dataset.site = site;

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
    // Read the clock once, so the text and its spoken form agree.
    const expired = showTimeLeft(timeLine, time, current.expiresAt, ctx.now());
    if (!answered) buttons.forEach((b) => (b.disabled = expired));
  }

  return {
    el,
    heading: top.heading,
    tick,
    update(c) {
      current = c;
      top.update(c);
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
  const views = new Map<string, CardView>();
  const seen = new Set<string>();

  return {
    el,
    tick: () => views.forEach((v) => v.tick()),
    update(state) {
      const items = state.confirmations;
      let lostFocus = false;
      reconcile(
        list,
        views as Map<string, Keyed<PendingConfirmation>>,
        items,
        confirmationKey,
        (c) => card(ctx, c),
        (_key, view) => {
          if (view.el.contains(document.activeElement)) lostFocus = true;
        },
      );
      el.hidden = items.length === 0;
      setText(headingText, `Waiting for your answer (${items.length})`);
      const added = items.filter((c) => !seen.has(confirmationKey(c)));
      added.forEach((c) => seen.add(confirmationKey(c)));
      if (added.length) {
        ctx.announce(
          `Confirmation needed: ${added.map(question).join("; ")}. ${items.length} waiting. ` +
            (added.every((c) => c.site !== undefined)
              ? "Answer with Allow once, Always allow this site or Deny."
              : "Answer with Allow, Deny or Always allow."),
        );
        // Bring it into view, without moving focus, unless the person is busy with a control.
        if (!busyElsewhere()) el.scrollIntoView({ block: "nearest" });
      }
      if (lostFocus) {
        const next = items.length ? views.get(confirmationKey(items[0]))?.heading : undefined;
        (next ?? document.querySelector<HTMLElement>("main"))?.focus();
      }
    },
  };
}
