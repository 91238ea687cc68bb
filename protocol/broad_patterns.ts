/**
 * URL patterns that cover whole swaths of the web (docs/security.md, "Plugins that run on every
 * site"). A pattern is broad when it matches every site, or every site under a top-level domain:
 *
 * - `<all_urls>`;
 * - any scheme (`*`, `http`, `https`) with the host `*`, whatever the path (`https://*` then
 *   any path): every website;
 * - a host `*.<suffix>` where the suffix is a top-level domain (`*.com`) or a country's public
 *   second level (`*.co.uk`, `*.com.au`: `co`, `com`, `net`, `org`, `gov`, `edu`, `ac` before a
 *   two-letter country code): every site under it.
 *
 * `file://` patterns are not broad websites; they are named separately ("files on this computer").
 * Excludes do not narrow the verdict: a plugin on `<all_urls>` minus one site still runs almost
 * everywhere. Pure and DOM-safe.
 */
import { parseMatchPattern } from "./match_pattern.ts";

const SECOND_LEVELS = new Set(["co", "com", "net", "org", "gov", "edu", "ac"]);

/** The suffix a `*.` host covers is a public one (a TLD, or `co.uk`-like). */
function publicSuffix(bare: string): boolean {
  const labels = bare.split(".");
  if (labels.length === 1) return true;
  return labels.length === 2 && SECOND_LEVELS.has(labels[0]) && /^[a-z]{2}$/.test(labels[1]);
}

/** What a broad pattern covers, in words, or undefined when the pattern is not broad. */
export function broadReach(pattern: string): string | undefined {
  let parsed;
  try {
    parsed = parseMatchPattern(pattern);
  } catch {
    return undefined; // invalid patterns never load
  }
  if (parsed === "all_urls") return "every website you visit";
  if (parsed.scheme === "file") return parsed.path === "/*" ? "files on this computer" : undefined;
  if (parsed.host === "*") return "every website you visit";
  if (parsed.host.startsWith("*.") && publicSuffix(parsed.host.slice(2))) {
    return `every .${parsed.host.slice(2)} website you visit`;
  }
  return undefined;
}

/** The broad patterns among `patterns`. */
export function broadPatterns(patterns: readonly string[]): string[] {
  return patterns.filter((p) => broadReach(p) !== undefined);
}

/** What broad patterns cover, with the patterns: "every website you visit (<all_urls>)". */
function broadReachText(patterns: readonly string[]): string | undefined {
  const broad = broadPatterns(patterns);
  if (broad.length === 0) return undefined;
  const reaches = [...new Set(broad.map((p) => broadReach(p)!))];
  const everywhere = reaches.includes("every website you visit");
  const shown = everywhere ? ["every website you visit"] : reaches;
  return `${shown.join(" and on ")} (${broad.join(", ")})`;
}

/**
 * One sentence for a person, or undefined when no pattern is broad: "Runs on every website you
 * visit (<all_urls>)." Several reaches are joined.
 */
export function broadWarning(patterns: readonly string[]): string | undefined {
  const reach = broadReachText(patterns);
  return reach === undefined ? undefined : `Runs on ${reach}.`;
}

/** What allowing a broad plugin means, after the warning. */
const BROAD_CONSEQUENCE =
  "Once allowed, its code can read and change those pages while you are logged in.";

/**
 * The warning with what allowing it means, or undefined when no pattern is broad. Without a
 * subject (the panel's card, which names the plugin already): "Runs on … (<all_urls>). Once
 * allowed, …"; with one (`plugin "x"`): `Plugin "x" runs on … (<all_urls>). Once allowed, …`.
 */
export function broadNotice(patterns: readonly string[], subject?: string): string | undefined {
  const reach = broadReachText(patterns);
  if (reach === undefined) return undefined;
  const runs = subject === undefined ? "Runs" : `${subject} runs`;
  return `${runs} on ${reach}. ${BROAD_CONSEQUENCE}`;
}
