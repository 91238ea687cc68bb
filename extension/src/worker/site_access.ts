/**
 * The site rules the worker enforces (docs/decisions/072-site-permissions.md): the hub's
 * `sitePermissions`, `defaultSitePermission` and `agentTabsOnly`, as the last `sync.full` sent
 * them. The rules are compiled once per update (compileSiteRules, the protocol's one ranking), so
 * a call's decision costs a URL parse and a walk over the rules, not a parse of every pattern.
 */
import type { Permission } from "../../../protocol/permission.ts";
import {
  compileSiteRules,
  DEFAULT_SITE_PERMISSION,
  type SiteDecision,
} from "../../../protocol/site_permissions.ts";

/** The site fields of `sync.full`. */
export interface SiteState {
  sitePermissions?: Record<string, Permission>;
  defaultSitePermission?: Permission;
  agentTabsOnly?: boolean;
}

export interface SiteAccess {
  /** From sync.full (absent fields: no rules, default ask, agentTabsOnly false). */
  update(state: SiteState): void;
  /** The permission of the page at `url`; undefined for a page with no site (not http/https). */
  decide(url: string | undefined): SiteDecision | undefined;
  agentTabsOnly(): boolean;
}

/** Site access with no rules, the default `ask`, and agentTabsOnly off, until the first update. */
export function createSiteAccess(): SiteAccess {
  let rules = compileSiteRules({}, DEFAULT_SITE_PERMISSION);
  let tabsOnly = false;

  return {
    update(state) {
      rules = compileSiteRules(
        state.sitePermissions,
        state.defaultSitePermission ?? DEFAULT_SITE_PERMISSION,
      );
      tabsOnly = state.agentTabsOnly ?? false;
    },
    decide: (url): SiteDecision | undefined => rules.decide(url),
    agentTabsOnly: () => tabsOnly,
  };
}
