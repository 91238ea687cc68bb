/**
 * Changing `sitePermissions` in a config: one site rule set or removed, the way both the CLI
 * (`hub config set site-permission.<pattern>`) and the hub (the side panel, "Always allow this
 * site") do it. A pattern is stored in its canonical form (`parseSitePattern`), so `Example.COM`
 * and `example.com` are one rule; the problems are said in words that show how to write one.
 */
import type { HubConfig, Permission } from "./schema.ts";
import { MAX_SITE_RULES, parseSitePattern } from "../../protocol/site_permissions.ts";
import { ownValue, reservedKeyError } from "../../protocol/safe_keys.ts";

/** The pattern forms, for messages. */
export const SITE_PATTERN_FORMS = 'a host ("example.com"), its subdomains ("*.example.com"), ' +
  'a host with a port ("127.0.0.1:8080") or an origin ("https://app.example.com:8443")';

/** The canonical pattern (the config key) of what a person wrote, or what is wrong with it. */
export function siteRuleKey(
  text: string,
): { ok: true; key: string } | { ok: false; problem: string } {
  const parsed = parseSitePattern(text);
  const shown = JSON.stringify(text.slice(0, 80));
  if (!parsed.ok) {
    return {
      ok: false,
      problem: `The site pattern ${shown} ${parsed.problem}. Write ${SITE_PATTERN_FORMS}.`,
    };
  }
  const reserved = reservedKeyError(parsed.canonical, "site pattern");
  if (reserved) return { ok: false, problem: `${reserved}.` };
  return { ok: true, key: parsed.canonical };
}

/**
 * Sets the rule `key` (canonical, from `siteRuleKey`) to `permission`, or removes it (`null`).
 * Throws an Error when a new rule would pass MAX_SITE_RULES. Answers whether a rule was there.
 */
export function applySiteRule(
  config: HubConfig,
  key: string,
  permission: Permission | null,
): boolean {
  const existed = ownValue(config.sitePermissions, key) !== undefined;
  if (permission === null) {
    if (existed) delete config.sitePermissions[key];
    return existed;
  }
  if (!existed && Object.keys(config.sitePermissions).length >= MAX_SITE_RULES) {
    throw new Error(
      `sitePermissions already holds ${MAX_SITE_RULES} rules, the most hub keeps. Remove one ` +
        "first (hub config set site-permission.<pattern> remove), or cover several sites with " +
        'one "*." rule.',
    );
  }
  config.sitePermissions[key] = permission;
  return existed;
}
