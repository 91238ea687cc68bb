/**
 * The `ask` round trip of site permissions, the hub's half (decision 072): the extension, which
 * alone knows the tab's URL when the call runs, answers a browser tool's dispatch with SITE_ASK
 * before touching the tab; the hub asks the person "Allow agents to use <site>?" through the
 * confirmations, then dispatches again with the site granted for this call only. "Always allow
 * this site" also writes an `auto` rule for the page's origin (`https://app.example.com`, the
 * most specific form: it always wins over the rule that asked, and covers only the scheme, host
 * and port the person was shown; the site's key when the extension names no origin). With skip-permissions on, the site is granted
 * without asking (an `off` site stays refused by the extension). A page that keeps changing site
 * is refused after MAX_SITE_ASKS questions.
 */
import { HubError, hubError } from "../../protocol/errors.ts";
import { MAX_SITE_PATTERN_CHARS, siteOf } from "../../protocol/site_permissions.ts";
import { isPlainObject } from "../../protocol/plain_object.ts";
import type { Confirmations } from "./confirmations_interface.ts";

/** At most this many sites are asked about in one call; one more SITE_ASK is SITE_NOT_ALLOWED. */
export const MAX_SITE_ASKS = 3;

export interface SiteAskDeps {
  confirmations: Confirmations;
  /** "Always allow this site": writes `sitePermissions[pattern] = "auto"` (the page's origin). */
  allowSite(pattern: string): Promise<void>;
  /** Skip-permissions is on (config or environment): sites are granted without asking. */
  skipPermissions(): boolean;
}

/** The call whose dispatch may ask about sites: what the confirmation shows. */
export interface SiteAskCall {
  /** The call's invocation id: the confirmation's id, as for a tool confirmation. */
  id: string;
  tool: string;
  plugin: string;
  parameters: Record<string, unknown>;
  signal?: AbortSignal;
  /** Told the origin (else the key) of each site asked about (the audit's `site` of a refusal). */
  onSite(site: string): void;
}

/**
 * What the extension's SITE_ASK says: the site's key (`app.example.com`, what is granted and
 * shown), the page's origin (`https://app.example.com`, what "Always" writes) and its URL.
 */
interface SiteAsk {
  site: string;
  origin?: string;
  url?: string;
}

/**
 * Runs `dispatch` with the sites granted so far (none at first); each SITE_ASK it fails with is
 * asked about (or granted, with skip-permissions), then it runs again with that site granted.
 * Any other outcome is the call's.
 */
export async function withSiteAsks<T>(
  deps: SiteAskDeps,
  call: SiteAskCall,
  dispatch: (grants: readonly string[]) => Promise<T>,
): Promise<T> {
  const grants: string[] = [];
  for (let asked = 0;; asked++) {
    let ask: SiteAsk | undefined;
    try {
      return await dispatch([...grants]);
    } catch (thrown) {
      ask = siteAskOf(thrown);
      if (!ask) throw thrown;
    }
    call.onSite(ask.origin ?? ask.site);
    if (asked >= MAX_SITE_ASKS) throw keptChangingError(call.tool, ask);
    if (!deps.skipPermissions()) await askPerson(deps, call, ask);
    if (!grants.includes(ask.site)) grants.push(ask.site);
  }
}

/** The SITE_ASK a dispatch failed with, or undefined for any other failure. */
function siteAskOf(thrown: unknown): SiteAsk | undefined {
  if (!(thrown instanceof HubError) || thrown.code !== "SITE_ASK") return undefined;
  const details = thrown.payload.details;
  const site = isPlainObject(details) ? details.site : undefined;
  if (typeof site !== "string" || site === "" || site.length > MAX_SITE_PATTERN_CHARS) {
    throw hubError(
      "EXTENSION_ERROR",
      "The extension asked whether agents may use a site without naming the site.",
    );
  }
  const url = isPlainObject(details) && typeof details.url === "string" ? details.url : undefined;
  const origin = webOriginOf(details);
  return {
    site,
    ...(origin === undefined ? {} : { origin }),
    ...(url === undefined ? {} : { url: url.slice(0, 300) }),
  };
}

/**
 * `details.origin` of a SITE_ASK or a site refusal when it is an http(s) origin written as siteOf
 * writes it (so no page text passes for one), else undefined.
 */
export function webOriginOf(details: unknown): string | undefined {
  const origin = isPlainObject(details) ? details.origin : undefined;
  if (typeof origin !== "string" || origin.length > MAX_SITE_PATTERN_CHARS) return undefined;
  return siteOf(origin)?.origin === origin ? origin : undefined;
}

/**
 * "Allow agents to use <site>?": Allow once, Always allow this site (writes the origin's rule),
 * Deny.
 */
async function askPerson(deps: SiteAskDeps, call: SiteAskCall, ask: SiteAsk): Promise<void> {
  const { id, tool, plugin, parameters, signal } = call;
  const { site, origin } = ask;
  const decision = await deps.confirmations.ask({ id, tool, plugin, parameters, site }, signal);
  if (!decision.allow) {
    throw hubError("PERMISSION_DENIED", `The user did not allow agents to use ${site}.`, {
      site,
      ...(origin === undefined ? {} : { origin }),
    });
  }
  if (decision.alwaysAllow) await deps.allowSite(origin ?? site);
}

function keptChangingError(tool: string, ask: SiteAsk): HubError {
  return hubError(
    "SITE_NOT_ALLOWED",
    `${tool} asked about ${MAX_SITE_ASKS} sites and the page kept changing site (now ` +
      `${ask.site}), so hub did nothing in this tab. Call it again once the page has settled.`,
    {
      site: ask.site,
      ...(ask.origin === undefined ? {} : { origin: ask.origin }),
      ...(ask.url === undefined ? {} : { url: ask.url }),
    },
  );
}
