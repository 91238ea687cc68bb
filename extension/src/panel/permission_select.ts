/**
 * A labelled off / ask / auto selector. A change is sent at once; while it is on its way, state
 * pushes do not move the selector. A failed change puts the selector back to the true value (the
 * last state push) and shows the error beside it.
 */
import { type Child, h, setText, uid } from "./dom.ts";
import type { Permission } from "../shared/panel_messages.ts";
import { errorText, type ViewContext } from "./view_context.ts";

export const PERMISSION_LABELS: Record<Permission, string> = {
  off: "Off",
  ask: "Ask me",
  auto: "Auto",
};

export interface PermissionSelect {
  el: HTMLElement;
  select: HTMLSelectElement;
  /** The true value from the latest state; `enabled` false while the hub is unreachable. */
  update(value: Permission, enabled: boolean): void;
}

export interface PermissionSelectOptions {
  label: Child[];
  /** Spoken and shown in error messages, e.g. "Test App" or "echo". */
  what: string;
  testid: string;
  className?: string;
  change(permission: Permission): Promise<void>;
}

export function permissionSelect(
  ctx: ViewContext,
  options: PermissionSelectOptions,
): PermissionSelect {
  const id = uid("perm");
  const errorId = `${id}-error`;
  let truth: Permission = "off";
  let pending = false;
  const error = h("p", { class: "error", id: errorId, hidden: true });
  const select = h(
    "select",
    { id, "data-testid": options.testid, "aria-describedby": errorId, onchange },
    (Object.keys(PERMISSION_LABELS) as Permission[]).map((p) =>
      h("option", { value: p }, PERMISSION_LABELS[p])
    ),
  );
  const el = h(
    "div",
    { class: `permission ${options.className ?? ""}`.trim() },
    h("label", { for: id }, ...options.label),
    select,
    error,
  );

  async function onchange() {
    const chosen = select.value as Permission;
    pending = true;
    select.setAttribute("aria-busy", "true");
    error.hidden = true;
    try {
      await options.change(chosen);
    } catch (e) {
      select.value = truth;
      const text = `Could not set ${options.what} to ${PERMISSION_LABELS[chosen]}: ${errorText(e)}`;
      setText(error, text);
      error.hidden = false;
      ctx.announce(text, true);
    } finally {
      pending = false;
      select.removeAttribute("aria-busy");
    }
  }

  return {
    el,
    select,
    update(value, enabled) {
      truth = value;
      select.disabled = !enabled;
      if (!pending && select.value !== value) select.value = value;
      el.dataset.permission = value;
    },
  };
}
