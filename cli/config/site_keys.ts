/**
 * The site keys of `hub config set`: `site-permission.<pattern>` (everything after the first
 * `site-permission.` is the pattern, dots and `://` included), `defaultSitePermission` and
 * `agentTabsOnly`. Pure, like keys.ts, which routes them here.
 */
import type { HubConfig } from "../../core/config/schema.ts";
import { isPermission, type Permission, PERMISSIONS } from "../../protocol/permission.ts";
import { UserError } from "../../core/cli/user_error.ts";
import { applySiteRule, SITE_PATTERN_FORMS, siteRuleKey } from "../../core/config/site_rules.ts";

const SITE_PREFIX = "site-permission.";
/** The value that removes a rule. */
const REMOVE = "remove";

export const SITE_KEYS = [
  "site-permission.<pattern>        off|ask|auto|remove  (browser tools on a site: example.com, " +
  "*.example.com, 127.0.0.1:8080, https://app.example.com)",
  "defaultSitePermission            off|ask|auto  (sites without a rule; ask on a new install)",
  'agentTabsOnly                    true|false  (browser tools act only on tabs in the "hub" group)',
];

/** What a site key sets (keys.ts's ConfigChange). */
interface SiteChange {
  apply(config: HubConfig): void;
  summary: string;
}

/** The change a site key makes, or undefined when `key` is not one. */
export function parseSiteKey(key: string, value: string | undefined): SiteChange | undefined {
  if (key.startsWith(SITE_PREFIX)) return sitePermission(key.slice(SITE_PREFIX.length), value);
  if (key === "defaultSitePermission") return defaultSitePermission(value);
  if (key === "agentTabsOnly") return agentTabsOnly(value);
  return undefined;
}

const MEANING: Record<Permission, string> = {
  off: "browser tools do nothing there",
  ask: "browser tools ask you first",
  auto: "browser tools use it without asking",
};

function sitePermission(pattern: string, value: string | undefined): SiteChange {
  const rule = siteRuleKey(pattern);
  if (!rule.ok) {
    throw new UserError(`${rule.problem} Example: hub config set site-permission.example.com off`);
  }
  const key = rule.key;
  const word = value?.trim();
  if (word === REMOVE) {
    return {
      summary: `removed the site rule ${key} (its sites follow defaultSitePermission again)`,
      apply: (c) => {
        if (!applySiteRule(c, key, null)) throw new UserError(noRule(key, c));
      },
    };
  }
  if (word === undefined || !isPermission(word)) {
    throw new UserError(
      `hub config set site-permission.${key} takes ${PERMISSIONS.join(", ")} or ${REMOVE}` +
        (word === undefined ? "." : `, not "${word.slice(0, 40)}".`) +
        ` Example: hub config set site-permission.${key} ask`,
    );
  }
  return {
    summary: `site permission of ${key} = ${word} (${MEANING[word]})`,
    apply: (c) => {
      try {
        applySiteRule(c, key, word);
      } catch (error) {
        throw new UserError((error as Error).message);
      }
    },
  };
}

/** No rule to remove: say which there are (a few), since the pattern must match one exactly. */
function noRule(key: string, config: HubConfig): string {
  const rules = Object.keys(config.sitePermissions);
  const shown = rules.slice(0, 10).join(", ") + (rules.length > 10 ? `, … (${rules.length})` : "");
  return `There is no site rule ${key}; nothing was removed. Rules: ${shown || "(none)"}.`;
}

function defaultSitePermission(value: string | undefined): SiteChange {
  const word = value?.trim() ?? "";
  if (!isPermission(word)) {
    throw new UserError(
      `defaultSitePermission must be ${PERMISSIONS.join(", ")}, not "${word.slice(0, 40)}": ` +
        "what browser tools may do on a site no site-permission rule names. " +
        "Example: hub config set defaultSitePermission ask",
    );
  }
  const warning = word === "auto"
    ? "; if browser tools run without asking too, any site is open to agents"
    : "";
  return {
    summary: `defaultSitePermission = ${word} (sites without a rule: ${MEANING[word]}${warning})`,
    apply: (c) => (c.defaultSitePermission = word),
  };
}

function agentTabsOnly(value: string | undefined): SiteChange {
  const word = value?.trim();
  if (word !== "true" && word !== "false") {
    throw new UserError(
      `agentTabsOnly must be true or false, not "${(word ?? "").slice(0, 40)}". Example: ` +
        "hub config set agentTabsOnly true",
    );
  }
  const on = word === "true";
  return {
    summary: on
      ? 'agentTabsOnly = true (browser tools act only on tabs in the "hub" group and tabs they open)'
      : "agentTabsOnly = false (browser tools may act on any tab)",
    apply: (c) => (c.agentTabsOnly = on),
  };
}

/** For `hub config show`: the site rules, one per line, under the default and the tab setting. */
export function siteLines(config: HubConfig): string[] {
  const rules = Object.entries(config.sitePermissions).sort(([a], [b]) => a.localeCompare(b));
  const width = Math.max(0, ...rules.map(([pattern]) => pattern.length));
  return [
    `Sites:       ${config.defaultSitePermission} for sites without a rule; agentTabsOnly ` +
    `${config.agentTabsOnly}; ${rules.length} rule${rules.length === 1 ? "" : "s"}` +
    (rules.length ? " (the most specific wins):" : ` (patterns: ${SITE_PATTERN_FORMS})`),
    ...rules.map(([pattern, permission]) => `  ${pattern.padEnd(width)}  ${permission}`),
  ];
}
