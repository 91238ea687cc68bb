/**
 * The site permissions check: a warning when built-in browser tools run without asking (`auto`,
 * or `ask` under skip-permissions) and a site without a rule is `auto` too, so an agent may read
 * and act on any site in the person's logged-in browser without one question.
 */
import type { HubConfig, Permission } from "../../core/config/schema.ts";
import { BROWSER_GROUP } from "../../protocol/call_contract.ts";
import { ownValue } from "../../protocol/safe_keys.ts";
import { siteGatedMethod } from "../../protocol/site_permissions.ts";
import { BROWSER_TOOLS, effectivePermission } from "../../server/mod.ts";
import { type Check, pass, problem, skip } from "./report.ts";

const ID = "site_permissions";
const TITLE = "site permissions";
/**
 * The browser tools site rules apply to: not list_tabs, list_windows, list_downloads nor the
 * extension_* tools, which touch no page (the worker's gate leaves the same methods alone).
 */
const SITE_GATED_TOOLS = BROWSER_TOOLS.filter((tool) => siteGatedMethod(tool.method))
  .map((tool) => tool.name);

/**
 * Why browser tools that touch sites run without asking (`browser tools are auto`,
 * `browser_click_element is auto`), or undefined when none does, by the hub's own effective
 * permission (a tool's override, else the group's; with skip-permissions, `ask` runs as `auto`).
 * `skipping`: skip-permissions is on (config, or the hub's environment).
 */
export function browserToolsRunAuto(config: HubConfig, skipping: boolean): string | undefined {
  const entry = ownValue(config.permissions, BROWSER_GROUP);
  if (!entry) return undefined;
  const running = SITE_GATED_TOOLS.filter((name) =>
    effectivePermission(config, BROWSER_GROUP, name, skipping) === "auto"
  );
  if (running.length === 0) return undefined;
  const why = (permission: Permission) =>
    permission === "auto" ? "auto" : "ask, and skip-permissions is on";
  const own = (name: string) => ownValue(entry.tools, name);
  if (running.some((name) => own(name) === undefined)) {
    return `browser tools are ${why(entry.permission)}`;
  }
  const others = running.length - 1;
  const more = others > 0 ? ` (and ${others} more browser tool${others === 1 ? "" : "s"})` : "";
  return `${running[0]} is ${why(own(running[0])!)}${more}`;
}

/**
 * The check line. `config` undefined: config.json could not be used. `skipping`: whether the
 * running hub skips permissions (its /health), else what config and environment say.
 */
export function sitePermissionsCheck(config: HubConfig | undefined, skipping: boolean): Check {
  if (!config) return skip(ID, TITLE, "skipped (config.json cannot be used)");
  const rules = Object.keys(config.sitePermissions).length;
  const summary = `sites without a rule: ${config.defaultSitePermission}; ${rules} rule${
    rules === 1 ? "" : "s"
  }; agentTabsOnly ${config.agentTabsOnly ? "on" : "off"}`;
  const auto = browserToolsRunAuto(config, skipping);
  if (auto && config.defaultSitePermission === "auto") {
    return problem(
      "warn",
      ID,
      TITLE,
      `${auto} and defaultSitePermission is auto: an agent may read and act on any site in ` +
        "your browser (mail, bank, admin consoles) without asking you",
      "hub config set defaultSitePermission ask",
    );
  }
  return pass(ID, TITLE, summary);
}
