/// <reference lib="deno.ns" />
/** Fakes for the site gate's unit tests (site_gate_test.ts, site_gate_origin_test.ts). */
import type { Permission } from "../../../protocol/permission.ts";
import { fakeAgentGroup } from "./_test_fixtures.ts";
import { createSiteAccess } from "./site_access.ts";

export interface FakeTab {
  id: number;
  url: string;
  pendingUrl?: string;
  active?: boolean;
}

/**
 * A fake chrome.tabs over `tabs` (the active one answers a query), and chrome.scripting whose
 * script answers the `origin` of the document in `origins` (by `tabId`, or `tabId/frameId`); a
 * document not listed cannot be scripted.
 */
export function fakeTabs(tabs: FakeTab[], origins: Record<string, string> = {}) {
  return {
    scripting: {
      executeScript: ({ target }: { target: { tabId: number; frameIds?: number[] } }) => {
        const frame = target.frameIds?.[0] ?? 0;
        const origin = origins[frame === 0 ? `${target.tabId}` : `${target.tabId}/${frame}`];
        return origin === undefined
          ? Promise.reject(new Error("Cannot access contents of the page."))
          : Promise.resolve([{ frameId: frame, result: origin }]);
      },
    },
    tabs: {
      get: (id: number) => {
        const tab = tabs.find((t) => t.id === id);
        return tab ? Promise.resolve(tab) : Promise.reject(new Error(`No tab with id: ${id}.`));
      },
      query: () => Promise.resolve(tabs.filter((t) => t.active)),
    },
  };
}

/** What the gate needs, over `rules`; `used` holds the rules recorded as used. */
export function gateContext(
  rules: Record<string, Permission>,
  fields: { grants?: string[]; tabsOnly?: boolean; members?: Set<number> } = {},
) {
  const sites = createSiteAccess();
  sites.update({ sitePermissions: rules, agentTabsOnly: fields.tabsOnly });
  const used: string[] = [];
  return {
    sites,
    siteGrants: fields.grants ?? [],
    agentGroup: fakeAgentGroup(fields.members),
    siteUses: { record: (p: string) => void used.push(p), all: () => Promise.resolve({}) },
    used,
  };
}
