/**
 * Site permissions: which sites the built-in browser tools may read and act on. One definition the
 * config file, the CLI, the hub, the worker and the side panel share.
 *
 * A rule is a pattern with a permission (`off`, `ask`, `auto`):
 * - a host: `example.com`, `127.0.0.1`, `localhost`, `[::1]`: that host exactly, any port, http
 *   and https (`localhost` does not cover `[::1]`);
 * - `*.example.com`: its subdomains (not `example.com` itself);
 * - a host with a port (`127.0.0.1:8080`, `*.example.com:8443`): that port only;
 * - a full origin (`https://app.example.com:8443`): exactly that scheme, host and port.
 *
 * The most specific rule wins: an origin, then an exact host (with a port before without), then
 * the longest `*.` pattern (with a port before without). A site no rule matches gets the default
 * (`defaultSitePermission`, `ask` unless set).
 */
import * as z from "zod";
import { type Permission, permissionSchema } from "./permission.ts";

/** At most this many rules in `sitePermissions`. */
export const MAX_SITE_RULES = 500;
/** A pattern is at most this many characters. */
export const MAX_SITE_PATTERN_CHARS = 300;
/** A site's permission when no rule matches it and the config sets no default. */
export const DEFAULT_SITE_PERMISSION: Permission = "ask";

/** A parsed pattern. `host` is canonical (lower case, punycode, IPv6 in brackets). */
export type SitePattern =
  | { kind: "origin"; scheme: "http" | "https"; host: string; port: number }
  | { kind: "host"; host: string; port?: number }
  | { kind: "subdomains"; host: string; port?: number };

/** The site of a web page: what rules are matched against. */
export interface Site {
  /** `https://app.example.com` (the URL's origin, without a trailing dot on the host). */
  origin: string;
  scheme: "http" | "https";
  /**
   * `app.example.com`, `127.0.0.1`, `[::1]`: the URL's hostname without a trailing dot
   * (`bank.com.` is the same site as `bank.com`, so a rule cannot be dodged with one).
   */
  host: string;
  /** The port, the scheme's default when the URL names none. */
  port: number;
  /**
   * How the person sees the site, and the pattern "Always allow this site" writes: the host, with
   * `:port` when the URL names one that is not its scheme's default (`127.0.0.1:8080`).
   */
  key: string;
}

/** Which rule decided a site's permission. */
export interface SiteDecision {
  site: Site;
  permission: Permission;
  /** The canonical pattern of the rule that matched; absent: no rule did (the default applied). */
  pattern?: string;
}

export type SiteRules = Readonly<Record<string, Permission>>;

const DEFAULT_PORTS: Record<string, number> = { "http:": 80, "https:": 443 };

/**
 * The site of `url`: http and https pages, and `blob:` / `filesystem:` URLs by their inner http(s)
 * origin (an off site's blob is that site's document); anything else (about:blank, chrome://,
 * data:, file:, a string that is no URL) has none here: the worker decides such a document by
 * its real origin.
 */
export function siteOf(url: string | undefined): Site | undefined {
  const parsed = webUrl(url);
  if (!parsed) return undefined;
  const host = withoutDots(parsed.hostname);
  if (host === "") return undefined;
  const fallback = DEFAULT_PORTS[parsed.protocol];
  const port = parsed.port === "" ? fallback : Number(parsed.port);
  const key = parsed.port === "" ? host : `${host}:${port}`;
  const scheme = parsed.protocol === "https:" ? "https" : "http";
  return { origin: `${parsed.protocol}//${key}`, scheme, host, port, key };
}

/** The http(s) URL a page's URL stands for: itself, or a blob:/filesystem: URL's inner URL. */
function webUrl(url: string | undefined): URL | undefined {
  if (!url) return undefined;
  try {
    const parsed = new URL(url);
    const wrapped = parsed.protocol === "blob:" || parsed.protocol === "filesystem:";
    const inner = wrapped ? new URL(url.slice(parsed.protocol.length)) : parsed;
    return DEFAULT_PORTS[inner.protocol] === undefined ? undefined : inner;
  } catch {
    return undefined;
  }
}

/**
 * A host name without its trailing dots: `bank.com.` (and `bank.com..`, which Chromium loads as
 * the same host) name `bank.com`, so a rule cannot be dodged with them.
 */
function withoutDots(host: string): string {
  return host.replace(/\.+$/, "");
}

/**
 * Parses a pattern as a person writes it (`example.com`, `*.example.com`, `127.0.0.1:8080`,
 * `https://app.example.com:8443`), answering its canonical text (the config key) or what is wrong
 * with it, in words that say how to write it.
 */
export function parseSitePattern(
  text: string,
): { ok: true; pattern: SitePattern; canonical: string } | { ok: false; problem: string } {
  const raw = text.trim();
  if (raw === "") return fail("is empty");
  if (raw.length > MAX_SITE_PATTERN_CHARS) {
    return fail(`is longer than ${MAX_SITE_PATTERN_CHARS} characters`);
  }
  if (raw.includes("://")) return parseOrigin(raw);
  const wildcard = raw.startsWith("*.");
  const rest = wildcard ? raw.slice(2) : raw;
  if (rest.includes("*")) return fail('may hold "*" only as its first label ("*.example.com")');
  if (/[/?#@\s\\]/.test(rest)) {
    return fail('must be a host ("example.com"), "*.example.com", a host with a port or an origin');
  }
  let parsed: URL;
  try {
    parsed = new URL(`http://${rest}`);
  } catch {
    return fail("is not a host name, an IP address or a host with a port");
  }
  const host = withoutDots(parsed.hostname);
  if (host === "" || parsed.pathname !== "/" || parsed.username !== "") {
    return fail("is not a host name, an IP address or a host with a port");
  }
  if (host.split(".").includes("")) return fail("has an empty label (two dots in a row)");
  if (wildcard && (host.startsWith("[") || /^[\d.]+$/.test(host))) {
    return fail('uses "*." before an IP address; name the address itself');
  }
  const explicitPort = /:(\d+)$/.exec(rest)?.[1];
  const port = explicitPort === undefined ? undefined : Number(explicitPort);
  if (port !== undefined && !(port >= 1 && port <= 65535)) {
    return fail("has a port outside 1-65535");
  }
  const canonical = `${wildcard ? "*." : ""}${host}${port === undefined ? "" : `:${port}`}`;
  const pattern: SitePattern = wildcard
    ? { kind: "subdomains", host, ...(port === undefined ? {} : { port }) }
    : { kind: "host", host, ...(port === undefined ? {} : { port }) };
  return { ok: true, pattern, canonical };
}

function parseOrigin(raw: string) {
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    return fail("is not an origin like https://app.example.com:8443");
  }
  const fallback = DEFAULT_PORTS[parsed.protocol];
  if (fallback === undefined) return fail("must be an http:// or https:// origin");
  const bare = parsed.pathname === "/" && parsed.search === "" && parsed.hash === "" &&
    parsed.username === "" && parsed.password === "" && !/[/?#]./.test(raw.split("://")[1]);
  if (!bare || parsed.hostname === "" || parsed.hostname.includes("*")) {
    return fail("must be an origin only (scheme, host and port), like https://app.example.com");
  }
  const port = parsed.port === "" ? fallback : Number(parsed.port);
  const host = withoutDots(parsed.hostname);
  if (host === "" || host.split(".").includes("")) {
    return fail("has an empty label (two dots in a row)");
  }
  const scheme = parsed.protocol === "https:" ? "https" : "http";
  const pattern: SitePattern = { kind: "origin", scheme, host, port };
  const canonical = `${parsed.protocol}//${host}${parsed.port === "" ? "" : `:${port}`}`;
  return { ok: true as const, pattern, canonical };
}

function fail(problem: string) {
  return { ok: false as const, problem };
}

/** Whether `pattern` covers `site`. */
export function patternMatches(pattern: SitePattern, site: Site): boolean {
  if (pattern.kind === "origin") {
    return pattern.scheme === site.scheme && pattern.host === site.host &&
      pattern.port === site.port;
  }
  if (pattern.port !== undefined && pattern.port !== site.port) return false;
  if (pattern.kind === "host") return pattern.host === site.host;
  return site.host.endsWith(`.${pattern.host}`);
}

/** How specific a pattern is: the larger wins. */
export function specificity(pattern: SitePattern): number {
  const port = pattern.kind !== "origin" && pattern.port !== undefined ? 1 : 0;
  if (pattern.kind === "origin") return 3_000_000;
  if (pattern.kind === "host") return 2_000_000 + port;
  return 1_000_000 + pattern.host.split(".").length * 10 + port;
}

/**
 * Browser methods that touch no page, so no site rule applies to them: tab and window listings
 * (titles and URLs only) and the worker's own download records; `extension.*` methods neither.
 */
export const SITELESS_BROWSER_METHODS: ReadonlySet<string> = new Set([
  "tabs.list",
  "windows.list",
  "downloads.list",
]);

/** Whether site rules apply to a browser method (the worker's gate and `hub doctor` agree). */
export function siteGatedMethod(method: string): boolean {
  return !SITELESS_BROWSER_METHODS.has(method) && !method.startsWith("extension.");
}

/** Rules compiled once: `decide(url)` walks them without parsing a pattern again. */
export interface CompiledSiteRules {
  /** The permission of the page at `url`; undefined for a URL with no site (siteOf). */
  decide(url: string | undefined): SiteDecision | undefined;
}

/**
 * Compiles `rules` (canonical patterns → permissions; a key that does not parse is skipped): the
 * most specific matching rule decides, ties in the order written, else `fallback`. The one place
 * the ranking lives (decideSite, the worker's site access).
 */
export function compileSiteRules(
  rules: SiteRules | undefined,
  fallback: Permission = DEFAULT_SITE_PERMISSION,
): CompiledSiteRules {
  const ranked: { text: string; pattern: SitePattern; score: number; permission: Permission }[] =
    [];
  for (const [text, permission] of Object.entries(rules ?? {})) {
    const parsed = parseSitePattern(text);
    if (!parsed.ok) continue;
    ranked.push({ text, pattern: parsed.pattern, score: specificity(parsed.pattern), permission });
  }
  ranked.sort((a, b) => b.score - a.score);
  return {
    decide(url) {
      const site = siteOf(url);
      if (!site) return undefined;
      const rule = ranked.find((r) => patternMatches(r.pattern, site));
      return rule
        ? { site, permission: rule.permission, pattern: rule.text }
        : { site, permission: fallback };
    },
  };
}

/** The permission of the page at `url` under `rules` (compileSiteRules, for one URL). */
export function decideSite(
  url: string | undefined,
  rules: SiteRules,
  fallback: Permission = DEFAULT_SITE_PERMISSION,
): SiteDecision | undefined {
  return compileSiteRules(rules, fallback).decide(url);
}

/**
 * `sitePermissions` in a config file or a `/ws` message: at most MAX_SITE_RULES rules, each key a
 * pattern written canonically (what `parseSitePattern` answers), each value a permission.
 */
export const sitePermissionsSchema = z.record(z.string(), permissionSchema).superRefine(
  (rules, context) => {
    const keys = Object.keys(rules);
    if (keys.length > MAX_SITE_RULES) {
      context.addIssue({
        code: "custom",
        message: `holds ${keys.length} rules; at most ${MAX_SITE_RULES} are allowed`,
      });
    }
    for (const key of keys.slice(0, MAX_SITE_RULES + 1)) {
      const parsed = parseSitePattern(key);
      if (!parsed.ok) {
        context.addIssue({
          code: "custom",
          path: [key],
          message: `"${key.slice(0, 80)}" ${parsed.problem}`,
        });
      } else if (parsed.canonical !== key) {
        context.addIssue({
          code: "custom",
          path: [key],
          message: `write it as "${parsed.canonical}"`,
        });
      }
    }
  },
);
