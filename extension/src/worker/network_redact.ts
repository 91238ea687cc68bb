/**
 * What the network log never holds: values of headers whose name says they carry a secret, values
 * of query parameters whose name says so, and a URL's user:password. Applied when a request is
 * recorded (network_log.ts) and to the debugger's URLs it is matched with (network_bodies.ts), so
 * a secret is never kept, not only never shown. A redacted value becomes `[redacted: N characters]`;
 * the URL keeps its shape (scheme, host, path, parameter names and order).
 */
import { cutUrl } from "../../../protocol/browser_methods/network.ts";

/**
 * Header names that carry secrets: any name containing one of these parts (Authorization,
 * X-Auth-Token, X-Goog-Api-Key, X-Amz-Security-Token, X-CSRFToken, Private-Token, Cookie, …).
 */
const SECRET_HEADER =
  /auth|token|secret|session|cookie|csrf|xsrf|api[-_]?key|passw|signature|credential|dpop|(^|[-_])key($|[-_])/i;
/** Headers whose value is a URL (its query may carry a secret). */
const URL_HEADER = /^(location|content-location|referer)$/i;

/** Query parameter names whose values are secrets, whole (lowercase). */
const SECRET_PARAMS = new Set([
  "code",
  "key",
  "sig",
  "sid",
  "pass",
  "pwd",
  "otp",
  "ticket",
  "client_assertion",
  "saml",
  "samlrequest",
  "samlresponse",
]);
/** Parts of query parameter names whose values are secrets (token, X-Amz-Signature, …). */
const SECRET_PARAM_PART =
  /token|secret|passw|signature|credential|api[-_]?key|access[-_]?key|private[-_]?key|session|sessid|auth|jwt/i;

/** Whether a header with this name has its value redacted. */
export function isSecretHeader(name: string): boolean {
  return SECRET_HEADER.test(name);
}

/** What replaces a secret value. */
export function redacted(value: string): string {
  return `[redacted: ${value.length} characters]`;
}

function secretParam(rawName: string): boolean {
  let name = rawName;
  try {
    name = decodeURIComponent(rawName.replace(/\+/g, " "));
  } catch { /* keep it raw */ }
  name = name.trim().toLowerCase();
  return SECRET_PARAMS.has(name) || SECRET_PARAM_PART.test(name);
}

/** `a=1&code=xyz` with the values of secret parameters redacted. */
function redactParams(params: string): string {
  return params.split("&").map((pair) => {
    const eq = pair.indexOf("=");
    if (eq <= 0 || eq === pair.length - 1) return pair;
    const name = pair.slice(0, eq);
    return secretParam(name) ? `${name}=${redacted(pair.slice(eq + 1))}` : pair;
  }).join("&");
}

/**
 * `url` (absolute or relative) with its user:password and the values of secret query (and
 * fragment) parameters redacted; everything else as it was.
 */
export function redactUrl(url: string): string {
  let rest = url;
  let fragment = "";
  const hash = rest.indexOf("#");
  if (hash >= 0) {
    // A fragment such as OAuth's `#access_token=…` is parameters too.
    fragment = "#" + redactParams(rest.slice(hash + 1));
    rest = rest.slice(0, hash);
  }
  let query = "";
  const mark = rest.indexOf("?");
  if (mark >= 0) {
    query = "?" + redactParams(rest.slice(mark + 1));
    rest = rest.slice(0, mark);
  }
  rest = rest.replace(
    /^([a-z][a-z0-9+.-]*:\/\/)([^/@]*)@/i,
    (_all, scheme: string, userinfo: string) => `${scheme}${redacted(userinfo)}@`,
  );
  return rest + query + fragment;
}

/** A URL as the log keeps it: redacted, then cut at MAX_URL_CHARS. */
export function keptUrl(url: string): string {
  return cutUrl(redactUrl(url));
}

/** A header's value as the log keeps it: a secret's length, or a URL redacted. */
export function keptHeaderValue(name: string, value: string): string {
  if (isSecretHeader(name)) return redacted(value);
  return URL_HEADER.test(name) ? redactUrl(value) : value;
}
