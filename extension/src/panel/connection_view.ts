/**
 * The connection block at the top of the panel: connected / connecting / disconnected, and when
 * something is wrong, what is wrong and what to do, with a button to connect now.
 */
import { h, setText } from "./dom.ts";
import type { PanelState } from "../shared/panel_messages.ts";
import { relativeTime } from "./format.ts";
import { errorText, type ViewContext } from "./view_context.ts";

export function statusText(state: PanelState): string {
  const { link } = state;
  if (link.state === "connected") {
    return link.port ? `Connected to 127.0.0.1:${link.port}` : "Connected";
  }
  if (link.state === "connecting") return "Connecting…";
  return "Not connected";
}

export interface ConnectionView {
  el: HTMLElement;
  update(state: PanelState): void;
  /** Re-renders time-dependent text. */
  tick(): void;
}

export function connectionView(ctx: ViewContext): ConnectionView {
  const dot = h("span", { class: "dot", "aria-hidden": "true" });
  const status = h("span", { class: "status-text", "data-testid": "connection-status" });
  const since = h("span", { class: "muted since" });
  const message = h("p", { class: "problem-message", "data-testid": "problem-message" });
  const fix = h("p", { class: "fix", "data-testid": "problem-fix" });
  const button = h("button", {
    type: "button",
    class: "primary",
    "data-testid": "reconnect",
    onclick: reconnect,
  });
  const error = h("p", { class: "error", hidden: true, role: "alert" });
  const problem = h(
    "div",
    { class: "problem", hidden: true, "data-testid": "problem" },
    message,
    fix,
    h("div", { class: "actions" }, button),
    error,
  );
  const el = h(
    "div",
    { class: "connection", "data-testid": "connection" },
    h("p", { class: "status-line" }, dot, status, since),
    problem,
  );
  let last: PanelState | undefined;
  let lastAnnounced = "";

  async function reconnect() {
    error.hidden = true;
    button.disabled = true;
    try {
      await ctx.send({ type: "reconnect" });
    } catch (e) {
      setText(error, `Could not reconnect: ${errorText(e)}`);
      error.hidden = false;
    } finally {
      button.disabled = false;
    }
  }

  function tick() {
    const at = last?.link.state === "connected" ? last.link.connectedAt : undefined;
    setText(since, at ? `since ${relativeTime(at, ctx.now())}` : "");
  }

  return {
    el,
    tick,
    update(state) {
      last = state;
      const { link } = state;
      el.dataset.state = link.state;
      setText(status, statusText(state));
      const p = link.problem;
      problem.hidden = !p;
      if (p) {
        problem.dataset.kind = p.kind;
        setText(message, p.message);
        setText(fix, p.fix);
        setText(button, p.kind === "replaced" ? "Connect this browser" : "Retry now");
      }
      // Connected with a problem (another hub version): retrying would change nothing.
      button.hidden = link.state === "connected";
      tick();
      const spoken = p ? `${statusText(state)}. ${p.message} ${p.fix}` : statusText(state);
      if (spoken !== lastAnnounced && link.state !== "connecting") {
        if (lastAnnounced) ctx.announce(spoken);
        lastAnnounced = spoken;
      }
    },
  };
}
