/**
 * The words of the Sites section, with no DOM, so they are unit-tested: each rule's last use, the
 * help lines of the default and of the agentTabsOnly switch, what an added rule is announced as.
 */
import { relativeTime } from "./format.ts";
import { PERMISSION_LABELS } from "./permission_select.ts";
import type { Permission, SiteRuleView } from "../shared/panel_messages.ts";

/** "last used 2 min ago", or "never used" for a rule that has let nothing through yet. */
export function lastUseText(rule: Pick<SiteRuleView, "lastUsedAt">, now: number): string {
  return rule.lastUsedAt === undefined
    ? "never used"
    : `last used ${relativeTime(rule.lastUsedAt, now)}`;
}

/** What the default means for a site no rule matches. */
export function defaultHelp(permission: Permission): string {
  switch (permission) {
    case "off":
      return "Off: browser tools refuse every site that has no rule below.";
    case "ask":
      return "Ask me: before an agent reads or acts on a site that has no rule, you are asked " +
        "(Allow once, Always allow this site, Deny).";
    case "auto":
      return "Auto: agents may read and act on any site that has no rule below, without asking. " +
        "Pages can carry instructions aimed at agents; Ask me is safer.";
  }
}

/** The agentTabsOnly switch's help line. */
export function agentTabsHelp(on: boolean): string {
  return on
    ? 'On: browser tools act only on tabs in the "hub" tab group and on tabs they open. Drag a ' +
      'tab into the "hub" group to let agents use it.'
    : 'Off: browser tools may act on any tab. Tabs they use join the "hub" tab group, so you ' +
      "see which ones.";
}

/** What the live region says once a rule is saved. */
export function ruleSaved(pattern: string, permission: Permission): string {
  return `Saved: ${pattern} is ${PERMISSION_LABELS[permission]}.`;
}

/** The error shown when the add form is sent empty. */
export const EMPTY_PATTERN =
  "Write a site first: a host (app.example.com), *.example.com, a host with a port " +
  "(127.0.0.1:8080) or an origin (https://app.example.com).";
