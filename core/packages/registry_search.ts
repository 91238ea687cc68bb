/**
 * `npm search` for plugin packages: the search terms to send (always "hub-plugin", so that a query
 * finds plugins only, and no query lists all of them), and npm's JSON answer turned into package
 * summaries. npm's registry and verdaccio both match name substrings; both answer with slightly
 * different shapes (verdaccio gives `dist-tags` instead of `version`), read here. Pure.
 */
import {
  MAX_SEARCH_RESULTS,
  type PackageSummary,
  type SearchResult,
} from "../../protocol/packages.ts";
import { clip } from "../../protocol/clip.ts";
import { isPlainObject } from "../../protocol/plain_object.ts";
import { isOfficial, isPluginPackageName } from "./package_names.ts";
import { packageError } from "./package_error.ts";

/** Longest query accepted (the `/ws` method's limit too). */
export const MAX_QUERY_LENGTH = 200;
const SEARCH_TERM = "hub-plugin";
const MAX_TERMS = 10;

/** The search terms npm gets (after `--`, so no term is ever read as an option). */
export function searchTerms(query: string | undefined): string[] {
  const text = (query ?? "").trim();
  if (text.length > MAX_QUERY_LENGTH) {
    throw packageError(
      "INVALID_NAME",
      `The search query is ${text.length} characters; use at most ${MAX_QUERY_LENGTH}.`,
    );
  }
  // deno-lint-ignore no-control-regex
  const words = text.replace(/[\u0000-\u001f\u007f]/g, " ").split(/\s+/).filter(Boolean);
  const extra = words.filter((w) => w.toLowerCase() !== SEARCH_TERM).slice(0, MAX_TERMS);
  return [SEARCH_TERM, ...extra];
}

function text(value: unknown, max: number): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? clip(value.trim(), max) : undefined;
}

/** npm writes an author as a string or as `{name, email}`; the publisher is a fallback. */
function authorOf(entry: Record<string, unknown>): string | undefined {
  const author = entry.author;
  if (typeof author === "string") return text(author, 200);
  if (isPlainObject(author)) return text(author.name, 200) ?? text(author.username, 200);
  const publisher = entry.publisher;
  if (isPlainObject(publisher)) return text(publisher.username, 200) ?? text(publisher.name, 200);
  return undefined;
}

function versionOf(entry: Record<string, unknown>): string | undefined {
  const tags = entry["dist-tags"];
  return text(entry.version, 64) ?? (isPlainObject(tags) ? text(tags.latest, 64) : undefined);
}

/** Reads npm's `search --json` output; undefined when it is not the JSON list npm prints. */
export function parseSearchOutput(stdout: string): Record<string, unknown>[] | undefined {
  let value: unknown;
  try {
    value = JSON.parse(stdout);
  } catch {
    return undefined;
  }
  return Array.isArray(value) ? value.filter(isPlainObject) : undefined;
}

/**
 * The plugin packages among npm's results: names that fit the plugin patterns, official first,
 * then by name; each with the version installed here, if any.
 */
export function toSearchResult(
  query: string | undefined,
  entries: Record<string, unknown>[],
  installed: ReadonlyMap<string, string>,
): SearchResult {
  const seen = new Set<string>();
  const packages: PackageSummary[] = [];
  for (const entry of entries) {
    const name = entry.name;
    if (typeof name !== "string" || !isPluginPackageName(name) || seen.has(name)) continue;
    const version = versionOf(entry);
    if (!version) continue;
    seen.add(name);
    const summary: PackageSummary = { name, version, official: isOfficial(name) };
    const description = text(entry.description, 500);
    const author = authorOf(entry);
    if (description) summary.description = description;
    if (author) summary.author = author;
    const here = installed.get(name);
    if (here) summary.installedVersion = here;
    packages.push(summary);
  }
  packages.sort((a, b) => Number(b.official) - Number(a.official) || a.name.localeCompare(b.name));
  return { query: (query ?? "").trim(), packages: packages.slice(0, MAX_SEARCH_RESULTS) };
}
