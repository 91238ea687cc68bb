/**
 * Puts plugin adapters into tabs: the runner (MAIN world) and the bridge (isolated world) that
 * carry calls and page events (page_messages.ts), and the adapter file itself
 * (`adapters/<plugin>-<hash>.js`, MAIN world). All by file, so a strict CSP allows them. A mark in the page remembers which build is there, so the same hash
 * is never injected twice into one document, even after the service worker restarted. Work on one
 * tab runs one step at a time.
 */
import { ADAPTER_REGISTRY } from "../../../protocol/adapter.ts";
import type { SyncPlugin } from "../../../protocol/events.ts";
import {
  ADAPTER_MARK,
  dropAdapter,
  hasAdapterBuild,
  markAdapterBuild,
} from "../shared/page_functions.ts";

export const BRIDGE_FILE = "bridge.js";
export const RUNNER_FILE = "runner.js";

export interface Injector {
  /** Injects the plugin's current build unless the page has it; returns whether it injected. */
  ensure(tabId: number, plugin: SyncPlugin): Promise<boolean>;
  remove(tabId: number, plugin: string): Promise<void>;
  forget(tabId: number): void;
}

export function createInjector(): Injector {
  const queues = new Map<number, Promise<unknown>>();

  /** Runs `work` after everything queued for the tab. */
  function serialize<T>(tabId: number, work: () => Promise<T>): Promise<T> {
    const previous = queues.get(tabId) ?? Promise.resolve();
    const next = previous.catch(() => {}).then(work);
    queues.set(tabId, next);
    void next.catch(() => {}).finally(() => {
      if (queues.get(tabId) === next) queues.delete(tabId);
    });
    return next;
  }

  async function inject(tabId: number, plugin: SyncPlugin): Promise<boolean> {
    const [check] = await chrome.scripting.executeScript({
      target: { tabId },
      world: "MAIN",
      func: hasAdapterBuild,
      args: [ADAPTER_MARK, plugin.name, plugin.adapterHash],
    });
    if (!check) throw new Error(`tab ${tabId} has no page to inject into`);
    // Every later step targets this very document: if the tab navigates meanwhile, they fail
    // instead of marking a new document that never got the adapter.
    const target = { tabId, documentIds: [check.documentId] };
    // Both guard themselves, so injecting them again is harmless; it reopens a bridge port that
    // died with a restarted service worker.
    await chrome.scripting.executeScript({ target, world: "MAIN", files: [RUNNER_FILE] });
    await chrome.scripting.executeScript({ target, files: [BRIDGE_FILE] });
    if (check.result === true) return false;
    await chrome.scripting.executeScript({
      target,
      world: "MAIN",
      files: [`adapters/${plugin.adapterFile}`],
    });
    const [marked] = await chrome.scripting.executeScript({
      target,
      world: "MAIN",
      func: markAdapterBuild,
      args: [ADAPTER_REGISTRY, ADAPTER_MARK, plugin.name, plugin.adapterHash],
    });
    if (marked?.result !== true) {
      throw new Error(
        `the ${plugin.displayName} adapter did not register in tab ${tabId}; the page's ` +
          "console (DevTools) shows why",
      );
    }
    return true;
  }

  return {
    ensure: (tabId, plugin) => serialize(tabId, () => inject(tabId, plugin)),
    remove: (tabId, plugin) =>
      serialize(tabId, async () => {
        await chrome.scripting.executeScript({
          target: { tabId },
          world: "MAIN",
          func: dropAdapter,
          args: [ADAPTER_REGISTRY, ADAPTER_MARK, plugin],
        });
      }),
    forget(tabId) {
      queues.delete(tabId);
    },
  };
}
