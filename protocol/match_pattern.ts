/**
 * Browser match patterns (`<scheme>://<host>[:<port>]<path>`, or `<all_urls>`), as Chromium accepts
 * them for host permissions and script injection. Used by `hub-plugin build` and the hub to reject
 * bad patterns with a reason, and by the extension to decide which tabs a plugin matches.
 * Pure and DOM-safe: no Deno APIs.
 */

export interface MatchPattern {
  source: string;
  /** `*` means http or https. */
  scheme: "*" | "http" | "https" | "file";
  /** `*` any host; a leading `*.` also matches subdomains. Empty for `file`. */
  host: string;
  /** `*` or undefined: any port; otherwise the exact port. */
  port?: string;
  path: string;
}

const SCHEMES = ["*", "http", "https", "file"] as const;
const HOST_CHARS = /^[a-z0-9.-]+$|^\[[0-9a-f:.]+\]$/i;

/** Parses a match pattern; throws an Error saying what is wrong and what a valid one looks like. */
export function parseMatchPattern(source: string): MatchPattern | "all_urls" {
  if (source === "<all_urls>") return "all_urls";
  const fail = (why: string) =>
    new Error(`"${source}" is not a valid match pattern: ${why} (example: "*://*.example.com/*")`);
  const sep = source.indexOf("://");
  if (sep < 0) throw fail('it needs "<scheme>://<host>/<path>"');
  const scheme = source.slice(0, sep);
  if (!(SCHEMES as readonly string[]).includes(scheme)) {
    throw fail(`the scheme must be one of ${SCHEMES.join(", ")}, not "${scheme}"`);
  }
  const rest = source.slice(sep + 3);
  const slash = rest.indexOf("/");
  if (slash < 0) throw fail('it needs a path after the host, such as "/*"');
  const authority = rest.slice(0, slash);
  const path = rest.slice(slash);
  if (scheme === "file") {
    if (authority !== "") throw fail('a file pattern has no host: use "file:///path"');
    return { source, scheme, host: "", path };
  }
  const { host, port } = splitPort(authority, fail);
  if (host === "") throw fail("the host is missing");
  if (host !== "*") {
    const bare = host.startsWith("*.") ? host.slice(2) : host;
    if (bare.includes("*")) {
      throw fail('a "*" in the host may only be the whole host or a leading "*."');
    }
    if (bare === "" || !HOST_CHARS.test(bare)) throw fail(`"${host}" is not a valid host`);
  }
  return { source, scheme: scheme as MatchPattern["scheme"], host: host.toLowerCase(), port, path };
}

function splitPort(authority: string, fail: (why: string) => Error) {
  const colon = authority.lastIndexOf(":");
  if (colon < 0 || authority.endsWith("]")) return { host: authority, port: undefined };
  const port = authority.slice(colon + 1);
  if (port !== "*" && !/^\d{1,5}$/.test(port)) throw fail(`"${port}" is not a valid port`);
  if (port !== "*" && Number(port) > 65535) throw fail(`port ${port} is above 65535`);
  return { host: authority.slice(0, colon), port };
}

/** Returns the problem with a pattern, or undefined when it is valid. */
export function matchPatternError(source: string): string | undefined {
  try {
    parseMatchPattern(source);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

function globToRegExp(glob: string): RegExp {
  const escaped = glob.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*");
  return new RegExp(`^${escaped}$`);
}

/** Whether a URL matches one parsed pattern. */
export function patternMatches(pattern: MatchPattern | "all_urls", url: URL): boolean {
  const scheme = url.protocol.slice(0, -1);
  if (pattern === "all_urls") return ["http", "https", "file"].includes(scheme);
  if (pattern.scheme === "*" ? !["http", "https"].includes(scheme) : pattern.scheme !== scheme) {
    return false;
  }
  if (scheme !== "file" && !hostMatches(pattern.host, url.hostname.toLowerCase())) return false;
  if (pattern.port !== undefined && pattern.port !== "*") {
    const port = url.port || (scheme === "https" ? "443" : "80");
    if (port !== pattern.port) return false;
  }
  return globToRegExp(pattern.path).test(url.pathname + url.search);
}

function hostMatches(patternHost: string, host: string): boolean {
  if (patternHost === "*") return true;
  if (patternHost.startsWith("*.")) {
    const base = patternHost.slice(2);
    return host === base || host.endsWith(`.${base}`);
  }
  return host === patternHost;
}

/**
 * Whether a URL belongs to a plugin: it matches one of `include` and none of `exclude`.
 * Invalid patterns never match (they are rejected at build time anyway).
 */
export function urlMatches(url: string, include: string[], exclude: string[] = []): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  const test = (source: string) => {
    try {
      return patternMatches(parseMatchPattern(source), parsed);
    } catch {
      return false;
    }
  };
  return include.some(test) && !exclude.some(test);
}
