/**
 * The site gate every built-in browser method passes before the dialog gate and the method
 * (docs/decisions/072-site-permissions.md). It alone knows the tab's URL at the moment of the
 * call, so the rules are enforced here, before anything happens in the tab; the hub only asks
 * the person.
 *
 * - Not gated: `tabs.list`, `windows.list` (titles and URLs only), `extension.*` and
 *   `downloads.list` (the worker's own records).
 * - `tabs.open` and `tabs.navigate` check the destination URL before the browser loads anything,
 *   and where the load ended after it (a redirect to an `off` site: SITE_NOT_ALLOWED, the tab does
 *   not join the agent's group; to an `ask` site not granted: answered without the page's title).
 * - Every other method, and `tabs.navigate` too (it acts on the page it leaves), checks its target
 *   tab (`tabId`, else the active tab, as `targetTab` picks it; a lookup that fails fails the
 *   call): its URL, and its pending URL too while it navigates. A page whose URL has no site
 *   (about:blank, data:, blob:) is decided by its real origin (document_origin.ts). The tab found
 *   is pinned into the input, so the method acts on the tab that was checked. Input at
 *   coordinates is checked by the frame under each point too (point_site.ts); a call placed in a
 *   frame, by that frame's site (call_place.ts, `checkFrameSite`).
 * - `off` → SITE_NOT_ALLOWED; `ask` whose site the hub did not grant for this call → SITE_ASK
 *   (the hub asks the person and dispatches again with the grant); `auto` or granted → on.
 * - Then agentTabsOnly: a tab outside the agent's group → TAB_NOT_IN_AGENT_GROUP.
 * - A call that went through joins its tab to the agent's tab group (a tab it opened as the
 *   agent's own), and answers the origin of the page it worked on, for the audit and the marker. A
 *   call that failed after it touched the tab (an element not found) joins it too.
 */
import type { BrowserMethodName } from "../../../protocol/browser_methods/mod.ts";
import { clip } from "../../../protocol/clip.ts";
import { HubError, hubError } from "../../../protocol/errors.ts";
import {
  parseSitePattern,
  type SiteDecision,
  siteGatedMethod,
  siteOf,
} from "../../../protocol/site_permissions.ts";
import { documentSiteUrl } from "./document_origin.ts";
import { type MethodContext, targetTab } from "./browser_methods/browser_method.ts";
import { notInAgentGroupError } from "./agent_group.ts";
import { checkPointSites, pointsOf } from "./point_site.ts";

/** A URL in SITE_ASK's and SITE_NOT_ALLOWED's details is cut to this many characters. */
const SITE_DETAIL_URL_CHARS = 300;

type GateContext = Pick<
  MethodContext,
  "sites" | "siteGrants" | "agentGroup" | "siteUses" | "frameSite"
>;

/**
 * Checks (and throws SITE_NOT_ALLOWED / SITE_ASK / TAB_NOT_IN_AGENT_GROUP) before `work`; joins
 * the tab to the agent group after; answers the work's value with the origin for the envelope.
 */
export async function withSiteGate<T>(
  method: BrowserMethodName,
  input: unknown,
  context: GateContext,
  work: () => Promise<T>,
): Promise<{ value: T; origin?: string }> {
  // The protocol's one list of siteless methods.
  if (!siteGatedMethod(method)) return { value: await work() };
  if (method === "tabs.open") return await openGated(input as { url?: string }, context, work);
  const given = input as { url?: string; tabId?: number };
  // A lookup that fails (TAB_NOT_FOUND) fails the call: nothing runs ungated.
  const tab = await targetTab(given);
  const tabId = tab.id!;
  given.tabId = tabId;
  // A page whose URL has no site (about:blank, data:, blob:) is decided by its real origin.
  const shown = await documentSiteUrl(tab.url, { tabId }) ?? tab.url;
  const current: Checked[] = [{ url: shown, what: "tab" }, { url: tab.pendingUrl, what: "tab" }];
  // Navigating a tab acts on the page it leaves too: both are checked.
  const destination: Checked[] = method === "tabs.navigate"
    ? [{ url: given.url, what: "navigation" }]
    : [];
  checkSites([...current, ...destination], context, tabId);
  if (method.startsWith("input.")) {
    await checkPointSites(tabId, pointsOf(given), (url) => frameRefusal(url, context));
  }
  if (context.sites.agentTabsOnly() && !(await context.agentGroup.has(tabId))) {
    throw notInAgentGroupError(tabId);
  }
  let value = await work().catch(async (error) => {
    if (touched(method, error)) await context.agentGroup.join(tabId);
    throw error;
  });
  if (method === "tabs.navigate") value = landed(value, given.url, context);
  if (method !== "tabs.close") await context.agentGroup.join(tabId);
  const inFrame = context.frameSite?.origin;
  return inFrame === undefined ? withOrigin(value, shown) : { value, origin: inFrame };
}

/** `tabs.open`: the destination is checked before the browser loads anything, then where it landed. */
async function openGated<T>(
  given: { url?: string },
  context: GateContext,
  work: () => Promise<T>,
): Promise<{ value: T; origin?: string }> {
  checkSites([{ url: given.url, what: "navigation" }], context);
  const value = landed(await work(), given.url, context);
  const tabId = (value as { tabId?: unknown })?.tabId;
  if (typeof tabId === "number") await context.agentGroup.opened(tabId);
  return withOrigin(value, given.url);
}

/**
 * After a navigation loaded: where it ended (its `url`, after any redirect) may be a site the
 * destination's check never saw. An `off` one → SITE_NOT_ALLOWED (the tab does not join the
 * agent's group; nothing of the page is answered); an `ask` one this call holds no grant for → the
 * value without the page's title (nothing read from it).
 */
function landed<T>(value: T, from: string | undefined, context: GateContext): T {
  const ended = (value as { url?: unknown })?.url;
  if (typeof ended !== "string" || ended === from) return value;
  const decision = context.sites.decide(ended);
  if (decision?.permission === "off") {
    throw siteNotAllowedError(decision, "redirect", ended, from);
  }
  if (decision?.permission === "ask" && !context.siteGrants.includes(decision.site.key)) {
    const { title: _title, ...rest } = value as Record<string, unknown>;
    return rest as T;
  }
  return value;
}

/** Failures that did nothing in the tab: refused before it was touched, or no such tab. */
const NOTHING_DONE: ReadonlySet<string> = new Set([
  "SITE_NOT_ALLOWED",
  "SITE_ASK",
  "TAB_NOT_IN_AGENT_GROUP",
  "TAB_NOT_FOUND",
  "DIALOG_OPEN",
]);

/**
 * Whether a call that failed with `error` still read or acted on its tab (an element not found
 * after the page was searched): then the tab joins the agent's group as for a success.
 */
function touched(method: BrowserMethodName, error: unknown): boolean {
  if (method === "tabs.close") return false;
  return !(error instanceof HubError && NOTHING_DONE.has(error.payload.code));
}

/** The value with the origin of the page it ended on (its `url`), else of `url`. */
function withOrigin<T>(value: T, url: string | undefined): { value: T; origin?: string } {
  const ended = (value as { url?: unknown })?.url;
  const origin = siteOf(typeof ended === "string" ? ended : undefined)?.origin ??
    siteOf(url)?.origin;
  return origin === undefined ? { value } : { value, origin };
}

/** A URL the gate checks, and what refusing it means (the tab's page, or where it would go). */
interface Checked {
  url: string | undefined;
  what: "tab" | "navigation";
}

/**
 * Throws for the first of `checked` whose site is `off`, else for the first `ask` site this call
 * holds no grant for; records the rules that let the call through (site_uses.ts).
 */
function checkSites(checked: Checked[], context: GateContext, tabId?: number): void {
  const decisions = checked.flatMap(({ url, what }) => {
    const decision = context.sites.decide(url);
    return decision ? [{ url: url!, what, decision }] : [];
  });
  const off = decisions.find(({ decision }) => decision.permission === "off");
  if (off) throw siteNotAllowedError(off.decision, off.what, off.url);
  const asked = decisions.find(({ decision }) =>
    decision.permission === "ask" && !context.siteGrants.includes(decision.site.key)
  );
  if (asked) throw siteAskError(asked.decision, asked.url, tabId);
  for (const pattern of new Set(decisions.map(({ decision }) => decision.pattern))) {
    if (pattern !== undefined) context.siteUses.record(pattern);
  }
}

/**
 * For a call that targets a frame: throws SITE_NOT_ALLOWED / SITE_ASK by the frame's own site.
 * A frame of the same site as its tab passed the tab's check already; checking it again answers
 * the same.
 */
export function checkFrameSite(url: string | undefined, context: FrameContext): void {
  const refused = frameRefusal(url, context);
  if (refused) throw refused;
}

/** What a frame check needs: the rules, this call's grants, and where a rule's use is recorded. */
type FrameContext =
  & Pick<MethodContext, "sites" | "siteGrants">
  & Partial<Pick<MethodContext, "siteUses">>;

/**
 * What `checkFrameSite` would throw for a frame at `url`, or undefined (then the rule that let it
 * through is recorded as used).
 */
export function frameRefusal(
  url: string | undefined,
  context: FrameContext,
): HubError | undefined {
  const decision = context.sites.decide(url);
  if (!decision) return undefined;
  if (decision.permission === "off") return siteNotAllowedError(decision, "tab", url);
  if (decision.permission === "ask" && !context.siteGrants.includes(decision.site.key)) {
    return siteAskError(decision, url!);
  }
  if (decision.pattern !== undefined) context.siteUses?.record(decision.pattern);
  return undefined;
}

/**
 * SITE_NOT_ALLOWED for `decision` (an `off` site), naming the site and how to allow it. `what`:
 * the tab's page (nothing was done in it), a destination (not opened), or where a navigation to
 * `from` was redirected (nothing was read from it).
 */
function siteNotAllowedError(
  decision: SiteDecision,
  what: "tab" | "navigation" | "redirect",
  url: string = decision.site.origin,
  from?: string,
): HubError {
  const { key, origin } = decision.site;
  const rule = decision.pattern === undefined
    ? "the default for sites without a rule"
    : `rule "${decision.pattern}"`;
  const did = what === "tab"
    ? "so hub did nothing in this tab"
    : what === "navigation"
    ? "so hub did not open it"
    : `and the allowed URL ${clip(from ?? "", SITE_DETAIL_URL_CHARS)} redirected there: hub ` +
      "read nothing from the page";
  return hubError(
    "SITE_NOT_ALLOWED",
    `Browser tools are off for ${key} (${rule}), ${did}. A person can allow it: ` +
      `hub config set site-permission.${fixPattern(decision)} ask (or auto), or in the side ` +
      "panel's Sites section.",
    {
      site: key,
      origin,
      ...(decision.pattern === undefined ? {} : { pattern: decision.pattern }),
      url: clip(url, SITE_DETAIL_URL_CHARS),
    },
  );
}

/**
 * The pattern a fix command names: the rule that decided when it is an exact host, host:port or
 * origin rule (a rule for the site key would lose to it); else (a `*.` rule, the default) the site
 * key, an exact host rule that outranks both.
 */
function fixPattern(decision: SiteDecision): string {
  const { pattern } = decision;
  if (pattern === undefined) return decision.site.key;
  const parsed = parseSitePattern(pattern);
  return parsed.ok && parsed.pattern.kind !== "subdomains" ? pattern : decision.site.key;
}

/** SITE_ASK: the site is `ask` and the person has not allowed it for this call; the hub asks. */
function siteAskError(decision: SiteDecision, url: string, tabId?: number): HubError {
  const { key, origin } = decision.site;
  return hubError(
    "SITE_ASK",
    `Agents may use ${key} only once the person allows it; the hub asks them.`,
    {
      site: key,
      origin,
      url: clip(url, SITE_DETAIL_URL_CHARS),
      ...(tabId === undefined ? {} : { tabId }),
    },
  );
}
