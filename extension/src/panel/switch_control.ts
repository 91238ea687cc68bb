/**
 * An on/off switch (`role="switch"`) for one hub setting, with a help line and an error line under
 * it: the skip-permissions switch and the debugger switch. A click shows the new state at once and
 * asks the hub (`change`); when that fails the switch goes back to the true state and says why.
 */
import { h, setText } from "./dom.ts";
import { errorText, type ViewContext } from "./view_context.ts";

export interface SwitchOptions {
  /** Prefix of the element ids: `<id>-label`, `<id>-error`. */
  id: string;
  /** The help line's id (read with the switch: `aria-describedby`). */
  helpId: string;
  label: string;
  /** The button's `data-testid`. */
  testId: string;
  /** The state shown before the first update. */
  initial: boolean;
  /** `calm`: on is not a warning colour. */
  calm?: boolean;
  /** More attributes of the wrapper (its class is always `skip`). */
  attrs?: Record<string, string>;
  /** Whether the wrapper gets the class `on` while the switch is on (the warning look). */
  markOn?: boolean;
  /** The help line for a state. */
  help(on: boolean): string;
  /** Asks the hub to change the setting. */
  change(next: boolean): Promise<unknown>;
  /** The start of the error line when the change failed (the reason follows). */
  failure(next: boolean): string;
}

export interface SwitchControl {
  el: HTMLElement;
  /** The setting's true state; `disabled` when it cannot be changed now. */
  update(on: boolean, disabled: boolean): void;
}

export function switchControl(ctx: ViewContext, options: SwitchOptions): SwitchControl {
  let truth = options.initial;
  let pending = false;
  const labelId = `${options.id}-label`;
  const errorId = `${options.id}-error`;
  const label = h("span", { id: labelId, class: "switch-label" }, options.label);
  const stateText = h("span", { class: "switch-state", "aria-hidden": "true" });
  const button = h(
    "button",
    {
      type: "button",
      role: "switch",
      class: options.calm ? "switch calm" : "switch",
      "aria-checked": String(options.initial),
      "aria-labelledby": labelId,
      "aria-describedby": `${options.helpId} ${errorId}`,
      "data-testid": options.testId,
      onclick: toggle,
    },
    h("span", { class: "track", "aria-hidden": "true" }, h("span", { class: "thumb" })),
    stateText,
  );
  const help = h("p", { id: options.helpId, class: "small" });
  const error = h("p", { id: errorId, class: "error", hidden: true });
  const el = h(
    "div",
    { class: "skip", ...options.attrs },
    h("div", { class: "switch-row" }, label, button),
    help,
    error,
  );

  function show(on: boolean) {
    button.setAttribute("aria-checked", String(on));
    setText(stateText, on ? "On" : "Off");
    if (options.markOn) el.classList.toggle("on", on);
    setText(help, options.help(on));
  }

  async function toggle() {
    if (pending) return;
    const next = !truth;
    pending = true;
    error.hidden = true;
    show(next);
    try {
      await options.change(next);
    } catch (e) {
      show(truth);
      const text = `${options.failure(next)}: ${errorText(e)}`;
      setText(error, text);
      error.hidden = false;
      ctx.announce(text, true);
    } finally {
      pending = false;
    }
  }

  return {
    el,
    update(on, disabled) {
      truth = on;
      button.disabled = disabled;
      if (!pending) show(on);
    },
  };
}
