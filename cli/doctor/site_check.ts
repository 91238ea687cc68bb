/**
 * The site permissions check: a warning when built-in browser tools run without asking (`auto`,
 * or `ask` under skip-permissions) and a site without a rule is `auto` too, so an agent may read
 * and act on any site in the person's logged-in browser without one question.
 */
import type { HubConfig, Permission } from "../../core/config/schema.ts";
import { BROWSER_GROUP } from "../../protocol/call_contract.ts";
import { ownValue } from "../../protocol/safe_keys.ts";
import { type Check, pass, problem, skip } from "./report.ts";

const ID = "site_permissions";
const TITLE = "site permissions";
/** Tools of the browser group that touch no site (`extension_*`): they need no site rule. */
const SITELESS_PREFIX = "extension_";

/**
 * Why browser tools run without asking (`browser tools are auto`, `browser_click is auto`), or
 * undefined when none does. `skipping`: skip-permissions is on (config, or the hub's environment).
 */
export function browserToolsRunAuto(config: HubConfig, skipping: boolean): string | undefined {
  const entry = ownValue(config.permissions, BROWSER_GROUP);
  if (!entry) return undefined;
  const runs = (permission: Permission) =>
    permission === "auto" || (skipping && permission === "ask");
  const why = (permission: Permission) =>
    permission === "auto" ? "auto" : "ask, and skip-permissions is on";
  if (runs(entry.permission)) return `browser tools are ${why(entry.permission)}`;
  const tools = Object.entries(entry.tools)
    .filter(([name, permission]) => !name.startsWith(SITELESS_PREFIX) && runs(permission));
  if (tools.length === 0) return undefined;
  const [name, permission] = tools[0];
  const others = tools.length - 1;
  const more = others > 0 ? ` (and ${others} more browser tool${others === 1 ? "" : "s"})` : "";
  return `${name} is ${why(permission)}${more}`;
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
