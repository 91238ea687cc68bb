/**
 * The skip-permissions switch (`role="switch"`): when on, tools set to Ask run without asking.
 * Like the permission selectors, a failed change goes back to the true state and says why.
 */
import { switchControl } from "./switch_control.ts";
import type { ViewContext } from "./view_context.ts";

export interface SkipSwitch {
  el: HTMLElement;
  /** `forced`: set by the hub's environment, so it cannot be switched here. */
  update(enabled: boolean, connected: boolean, forced?: boolean): void;
}

export function skipSwitch(ctx: ViewContext): SkipSwitch {
  let forced = false;
  const control = switchControl(ctx, {
    id: "skip",
    helpId: "skip-warning",
    label: "Skip confirmations",
    testId: "skip-switch",
    initial: false,
    attrs: { "data-testid": "skip" },
    markOn: true,
    help: (on) =>
      forced
        ? "On because the hub was started with HUB_DANGEROUSLY_SKIP_PERMISSIONS=1: tools set to " +
          "“Ask me” run without asking. Restart the hub without it to turn this off."
        : on
        ? "On: tools set to “Ask me” run without asking you. Tools set to Off stay off. " +
          "Turn this off unless you trust every agent connected to the hub."
        : "Off: tools set to “Ask me” wait for your answer here. Turning this on lets them run " +
          "without asking.",
    change: (next) => ctx.send({ type: "setSkipPermissions", enabled: next }),
    failure: (next) => `Could not turn confirmations ${next ? "off" : "on"}`,
  });

  return {
    el: control.el,
    update(enabled, connected, isForced = false) {
      forced = isForced;
      control.update(enabled, !connected || forced);
    },
  };
}
