/**
 * Recent tool calls, newest first: tool, plugin, state (running / waiting / succeeded / failed,
 * shown with a symbol and a word, not colour alone), duration and, for failures, code and message.
 * A call waiting for a site to be allowed says which: "Waiting for you: allow app.example.com?".
 */
import { h, type Keyed, reconcile, setText } from "./dom.ts";
import { duration, relativeTime } from "./format.ts";
import type { ActivityEntry, PanelState } from "../shared/panel_messages.ts";
import type { ViewContext } from "./view_context.ts";

const STATE_TEXT: Record<ActivityEntry["state"], { glyph: string; text: string }> = {
  running: { glyph: "…", text: "Running" },
  waiting: { glyph: "?", text: "Waiting for you" },
  succeeded: { glyph: "✓", text: "Succeeded" },
  failed: { glyph: "✗", text: "Failed" },
};

function entryView(ctx: ViewContext): Keyed<ActivityEntry> & { tick(): void } {
  let current: ActivityEntry | undefined;
  const tool = h("code", { class: "tool" });
  const badge = h("span", { class: "badge", "data-testid": "activity-state" });
  const meta = h("p", { class: "meta muted small" });
  const error = h("p", { class: "error-text small", hidden: true });
  const el = h(
    "li",
    { class: "activity", "data-testid": "activity-entry" },
    h("div", { class: "activity-head" }, tool, badge),
    meta,
    error,
  );

  function tick() {
    if (!current) return;
    const e = current;
    const took = e.durationMs !== undefined
      ? duration(e.durationMs)
      : e.state === "running" || e.state === "waiting"
      ? `${duration(Math.max(0, ctx.now() - e.startedAt))} so far`
      : "";
    setText(
      meta,
      [e.plugin, took, relativeTime(e.startedAt, ctx.now())].filter(Boolean).join(" · "),
    );
  }

  return {
    el,
    tick,
    update(e) {
      current = e;
      el.dataset.state = e.state;
      el.dataset.tool = e.tool;
      setText(tool, e.tool);
      const s = STATE_TEXT[e.state];
      badge.className = `badge state-${e.state}`;
      const asks = e.state === "waiting" && e.site !== undefined ? `: allow ${e.site}?` : "";
      setText(badge, `${s.glyph} ${s.text}${asks}`);
      if (asks) el.dataset.site = e.site;
      else delete el.dataset.site;
      error.hidden = !e.error;
      if (e.error) {
        error.replaceChildren(h("code", {}, e.error.code), " ", e.error.message);
        error.dataset.code = e.error.code;
      }
      tick();
    },
  };
}

export interface ActivityView {
  el: HTMLElement;
  update(state: PanelState): void;
  tick(): void;
}

export function activityView(ctx: ViewContext): ActivityView {
  const list = h("ol", { class: "activity-list", "data-testid": "activity" });
  const empty = h("p", { class: "muted" }, "No tool calls yet.");
  const el = h(
    "section",
    { "aria-labelledby": "activity-heading" },
    h("h2", { id: "activity-heading" }, "Activity"),
    empty,
    list,
  );
  const views = new Map<string, ReturnType<typeof entryView>>();
  return {
    el,
    tick: () => views.forEach((v) => v.tick()),
    update(state) {
      empty.hidden = state.activity.length > 0;
      reconcile(
        list,
        views as Map<string, Keyed<ActivityEntry>>,
        state.activity,
        (e) => e.id,
        () => entryView(ctx),
      );
    },
  };
}
