/**
 * The skip-permissions switch (`role="switch"`): when on, tools set to Ask run without asking.
 * Like the permission selectors, a failed change goes back to the true state and says why.
 */
import { h, setText } from "./dom.ts";
import { errorText, type ViewContext } from "./view_context.ts";

export interface SkipSwitch {
  el: HTMLElement;
  /** `forced`: set by the hub's environment, so it cannot be switched here. */
  update(enabled: boolean, connected: boolean, forced?: boolean): void;
}

export function skipSwitch(ctx: ViewContext): SkipSwitch {
  let truth = false;
  let pending = false;
  const label = h("span", { id: "skip-label", class: "switch-label" }, "Skip confirmations");
  const stateText = h("span", { class: "switch-state", "aria-hidden": "true" });
  const button = h(
    "button",
    {
      type: "button",
      role: "switch",
      class: "switch",
      "aria-checked": "false",
      "aria-labelledby": "skip-label",
      "aria-describedby": "skip-warning skip-error",
      "data-testid": "skip-switch",
      onclick: toggle,
    },
    h("span", { class: "track", "aria-hidden": "true" }, h("span", { class: "thumb" })),
    stateText,
  );
  const warning = h("p", { id: "skip-warning", class: "small" });
  const error = h("p", { id: "skip-error", class: "error", hidden: true });
  const el = h(
    "div",
    { class: "skip", "data-testid": "skip" },
    h("div", { class: "switch-row" }, label, button),
    warning,
    error,
  );

  let forced = false;

  function show(on: boolean) {
    button.setAttribute("aria-checked", String(on));
    setText(stateText, on ? "On" : "Off");
    el.classList.toggle("on", on);
    setText(
      warning,
      forced
        ? "On because the hub was started with HUB_DANGEROUSLY_SKIP_PERMISSIONS=1: tools set to " +
          "“Ask me” run without asking. Restart the hub without it to turn this off."
        : on
        ? "On: tools set to “Ask me” run without asking you. Tools set to Off stay off. " +
          "Turn this off unless you trust every agent connected to the hub."
        : "Off: tools set to “Ask me” wait for your answer here. Turning this on lets them run " +
          "without asking.",
    );
  }

  async function toggle() {
    if (pending) return;
    const next = !truth;
    pending = true;
    error.hidden = true;
    show(next);
    try {
      await ctx.send({ type: "setSkipPermissions", enabled: next });
    } catch (e) {
      show(truth);
      const text = `Could not turn confirmations ${next ? "off" : "on"}: ${errorText(e)}`;
      setText(error, text);
      error.hidden = false;
      ctx.announce(text, true);
    } finally {
      pending = false;
    }
  }

  return {
    el,
    update(enabled, connected, isForced = false) {
      truth = enabled;
      forced = isForced;
      button.disabled = !connected || forced;
      if (!pending) show(enabled);
    },
  };
}
