/**
 * The site rules the worker enforces (docs/decisions/072-site-permissions.md): the hub's
 * `sitePermissions`, `defaultSitePermission` and `agentTabsOnly`, as the last `sync.full` sent
 * them. The rules are parsed once per update, most specific first, so a call's decision costs a
 * URL parse and a walk over the rules, not a parse of every pattern.
 */
import type { Permission } from "../../../protocol/permission.ts";
import {
  DEFAULT_SITE_PERMISSION,
  parseSitePattern,
  patternMatches,
  type SiteDecision,
  siteOf,
  type SitePattern,
  specificity,
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
  /** True when a frame at `url` must not be read in a whole-tab read: its site is `off`. */
  frameBlocked(url: string | undefined): boolean;
  agentTabsOnly(): boolean;
}

interface Rule {
  text: string;
  pattern: SitePattern;
  score: number;
  permission: Permission;
}

/** Rules as `decideSite` ranks them: the most specific first, ties in the order written. */
function parseRules(rules: Record<string, Permission> | undefined): Rule[] {
  const parsed: Rule[] = [];
  for (const [text, permission] of Object.entries(rules ?? {})) {
    const result = parseSitePattern(text);
    if (!result.ok) continue;
    parsed.push({ text, pattern: result.pattern, score: specificity(result.pattern), permission });
  }
  return parsed.sort((a, b) => b.score - a.score);
}

/** Site access with no rules, the default `ask`, and agentTabsOnly off, until the first update. */
export function createSiteAccess(): SiteAccess {
  let rules: Rule[] = [];
  let fallback: Permission = DEFAULT_SITE_PERMISSION;
  let tabsOnly = false;

  function decide(url: string | undefined): SiteDecision | undefined {
    const site = siteOf(url);
    if (!site) return undefined;
    const rule = rules.find((r) => patternMatches(r.pattern, site));
    return rule
      ? { site, permission: rule.permission, pattern: rule.text }
      : { site, permission: fallback };
  }

  return {
    update(state) {
      rules = parseRules(state.sitePermissions);
      fallback = state.defaultSitePermission ?? DEFAULT_SITE_PERMISSION;
      tabsOnly = state.agentTabsOnly ?? false;
    },
    decide,
    frameBlocked: (url) => decide(url)?.permission === "off",
    agentTabsOnly: () => tabsOnly,
  };
}
