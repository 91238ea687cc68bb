/**
 * When each site rule last let a browser tool through, for the side panel's Sites section ("2 min
 * ago", "never"). Kept in `chrome.storage.local` under one key, so it outlives a worker restart and
 * a browser restart; bounded to MAX_SITE_USES patterns (the oldest use is dropped). A write is
 * coalesced: a stream of calls writes at most once per WRITE_DELAY_MS.
 */
import { MAX_SITE_RULES } from "../../../protocol/site_permissions.ts";

export const SITE_USES_KEY = "siteUses";
/** At most this many patterns are remembered (as many as there can be rules). */
export const MAX_SITE_USES = MAX_SITE_RULES;
const WRITE_DELAY_MS = 1000;

type UseStorage = Pick<chrome.storage.StorageArea, "get" | "set">;

export interface SiteUses {
  /** The rule `pattern` let a call through now. */
  record(pattern: string): void;
  /** Pattern → when it last let a call through (ms since the epoch). */
  all(): Promise<Record<string, number>>;
}

/** Site uses over `storage` (chrome.storage.local, looked up at first use, when not given). */
export function createSiteUses(
  storage?: UseStorage,
  { clock = Date.now, writeDelayMs = WRITE_DELAY_MS } = {},
): SiteUses {
  const area = () => storage ?? chrome.storage.local;
  let loaded: Promise<Map<string, number>> | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;

  function load(): Promise<Map<string, number>> {
    return loaded ??= area().get(SITE_USES_KEY).then(
      (items) => new Map(Object.entries(validUses(items?.[SITE_USES_KEY]))),
      () => new Map<string, number>(),
    );
  }

  function save(uses: Map<string, number>) {
    timer = undefined;
    void area().set({ [SITE_USES_KEY]: Object.fromEntries(uses) }).catch(() => {});
  }

  return {
    record(pattern) {
      const at = clock();
      void load().then((uses) => {
        uses.delete(pattern);
        uses.set(pattern, at);
        for (const oldest of uses.keys()) {
          if (uses.size <= MAX_SITE_USES) break;
          uses.delete(oldest);
        }
        timer ??= setTimeout(() => save(uses), writeDelayMs);
      });
    },
    async all() {
      return Object.fromEntries(await load());
    },
  };
}

/** What storage held, kept only where it is a pattern → time, oldest first. */
function validUses(stored: unknown): Record<string, number> {
  if (!stored || typeof stored !== "object") return {};
  const entries = Object.entries(stored as Record<string, unknown>)
    .filter((e): e is [string, number] => typeof e[1] === "number" && Number.isFinite(e[1]))
    .sort((a, b) => a[1] - b[1]);
  return Object.fromEntries(entries.slice(-MAX_SITE_USES));
}
