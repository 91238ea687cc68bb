/**
 * The Debugger section: a switch for the hub's `debugger` setting (on = `auto`: hub may attach
 * Chromium's debugger to a tab while a tool needs it; off = never) and the tabs it is attached to
 * now. The switch (switch_control.ts, like the skip switch) changes the hub's config through the
 * worker (`setDebugger`); a failed change goes back to the true state and says why.
 */
import { h, replaceChildren, setText } from "./dom.ts";
import { switchControl } from "./switch_control.ts";
import type { ViewContext } from "./view_context.ts";
import type { PanelState } from "../shared/panel_messages.ts";

export interface DebuggerSection {
  el: HTMLElement;
  update(state: PanelState): void;
}

export function debuggerSection(ctx: ViewContext): DebuggerSection {
  const control = switchControl(ctx, {
    id: "debugger",
    helpId: "debugger-help",
    label: "Use the debugger",
    testId: "debugger-switch",
    initial: true,
    calm: true,
    help: (on) =>
      on
        ? "On: for real clicks and keys, dialogs, file choosers and PDFs, hub attaches Chromium's " +
          "debugger to a tab while a tool needs it, and Chromium shows its “started debugging " +
          "this browser” bar meanwhile."
        : "Off: hub never attaches the debugger. Tools use page events instead where they can " +
          "(some sites ignore those); the others fail with DEBUGGER_OFF.",
    change: (next) => ctx.send({ type: "setDebugger", mode: next ? "auto" : "off" }),
    failure: (next) => `Could not turn the debugger ${next ? "on" : "off"}`,
  });
  const attachedLine = h("p", { class: "small", "data-testid": "debugger-status" });
  const tabs = h("ul", { class: "tabs", "data-testid": "debugger-tabs" });
  const el = h(
    "section",
    { "aria-labelledby": "debugger-heading", "data-testid": "debugger", hidden: true },
    h("h2", { id: "debugger-heading" }, "Debugger"),
    control.el,
    attachedLine,
    tabs,
  );

  return {
    el,
    update(state) {
      const view = state.debugger;
      el.hidden = !view;
      if (!view) return;
      control.update(view.mode === "auto", state.link.state !== "connected" || !state.hub);
      const count = view.attached.length;
      setText(
        attachedLine,
        count === 0
          ? "Not attached to any tab."
          : `Attached to ${count === 1 ? "1 tab" : `${count} tabs`} now:`,
      );
      tabs.hidden = count === 0;
      replaceChildren(
        tabs,
        view.attached.map((t) =>
          h(
            "li",
            { "data-tab-id": t.tabId, "data-testid": "debugger-tab" },
            h("span", { class: "tab-title" }, t.title || "(untitled)"),
            h("span", { class: "url" }, t.url),
          )
        ),
      );
    },
  };
}
