/**
 * The Debugger section: a switch for the hub's `debugger` setting (on = `auto`: hub may attach
 * Chromium's debugger to a tab while a tool needs it; off = never) and the tabs it is attached to
 * now. The switch changes the hub's config through the worker (`setDebugger`), like the skip
 * switch; a failed change goes back to the true state and says why.
 */
import { h, replaceChildren, setText } from "./dom.ts";
import { errorText, type ViewContext } from "./view_context.ts";
import type { PanelState } from "../shared/panel_messages.ts";

export interface DebuggerSection {
  el: HTMLElement;
  update(state: PanelState): void;
}

export function debuggerSection(ctx: ViewContext): DebuggerSection {
  let truth = true;
  let pending = false;
  const label = h("span", { id: "debugger-label", class: "switch-label" }, "Use the debugger");
  const stateText = h("span", { class: "switch-state", "aria-hidden": "true" });
  const button = h(
    "button",
    {
      type: "button",
      role: "switch",
      class: "switch calm",
      "aria-checked": "true",
      "aria-labelledby": "debugger-label",
      "aria-describedby": "debugger-help debugger-error",
      "data-testid": "debugger-switch",
      onclick: toggle,
    },
    h("span", { class: "track", "aria-hidden": "true" }, h("span", { class: "thumb" })),
    stateText,
  );
  const help = h("p", { id: "debugger-help", class: "small" });
  const error = h("p", { id: "debugger-error", class: "error", hidden: true });
  const attachedLine = h("p", { class: "small", "data-testid": "debugger-status" });
  const tabs = h("ul", { class: "tabs", "data-testid": "debugger-tabs" });
  const el = h(
    "section",
    { "aria-labelledby": "debugger-heading", "data-testid": "debugger", hidden: true },
    h("h2", { id: "debugger-heading" }, "Debugger"),
    h("div", { class: "skip" }, h("div", { class: "switch-row" }, label, button), help, error),
    attachedLine,
    tabs,
  );

  function show(on: boolean) {
    button.setAttribute("aria-checked", String(on));
    setText(stateText, on ? "On" : "Off");
    setText(
      help,
      on
        ? "On: for real clicks and keys, dialogs, file choosers and PDFs, hub attaches Chromium's " +
          "debugger to a tab while a tool needs it, and Chromium shows its “started debugging " +
          "this browser” bar meanwhile."
        : "Off: hub never attaches the debugger. Tools use page events instead where they can " +
          "(some sites ignore those); the others fail with DEBUGGER_OFF.",
    );
  }

  async function toggle() {
    if (pending) return;
    const next = !truth;
    pending = true;
    error.hidden = true;
    show(next);
    try {
      await ctx.send({ type: "setDebugger", mode: next ? "auto" : "off" });
    } catch (e) {
      show(truth);
      const text = `Could not turn the debugger ${next ? "on" : "off"}: ${errorText(e)}`;
      setText(error, text);
      error.hidden = false;
      ctx.announce(text, true);
    } finally {
      pending = false;
    }
  }

  return {
    el,
    update(state) {
      const view = state.debugger;
      el.hidden = !view;
      if (!view) return;
      truth = view.mode === "auto";
      button.disabled = state.link.state !== "connected" || !state.hub;
      if (!pending) show(truth);
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
