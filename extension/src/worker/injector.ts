/**
 * Puts plugin adapters into tabs: the adapter file (`adapters/<plugin>-<hash>.js`, MAIN world,
 * by file so a strict CSP allows it) evaluates to its door's key and secret (protocol/adapter.ts),
 * which only the extension receives and keeps (adapter_doors.ts). A build is never injected twice
 * into one document, even after the service worker restarted. Work on one tab runs one step at
 * a time.
 */
import { type AdapterResult, DOOR_PREFIX, type DoorKey } from "../../../protocol/adapter.ts";
import type { SyncPlugin } from "../../../protocol/events.ts";
import { doorClose, doorProbe, hasDoor, type Missing } from "../shared/page_functions.ts";
import type { AdapterDoors, DoorRecord } from "./adapter_doors.ts";
import { pluginEnabled } from "./plugin_store.ts";
import { createKeyedQueue } from "./keyed_queue.ts";

export interface Injector {
  /** Injects the plugin's current build unless the page has it; returns whether it injected. */
  ensure(tabId: number, plugin: SyncPlugin): Promise<boolean>;
  /** The adapter's `isReady(settings)`; `missing` when the tab has not got this build. */
  probe(tabId: number, plugin: SyncPlugin): Promise<AdapterResult | Missing>;
  remove(tabId: number, plugin: string): Promise<void>;
  forget(tabId: number): void;
}

/** The random parts of a door key and its secret, as the SDK makes them (sdk/_adapter.ts). */
const KEY_RANDOM = /^[0-9a-f]{32}$/;
const SECRET = /^[0-9a-f]{64}$/;

/**
 * The door key an adapter file evaluated to (its bundle's exports' default), if it is one: the
 * key and secret must have exactly the SDK's shape, so a page or adapter cannot hand the worker a
 * huge string to keep (and to save in session storage).
 */
export function doorKeyOf(completion: unknown, plugin: string): DoorKey | undefined {
  const value = (completion as { default?: unknown } | null)?.default as Partial<DoorKey>;
  const prefix = `${DOOR_PREFIX}${plugin}:`;
  if (
    typeof value?.key !== "string" || typeof value.secret !== "string" ||
    value.plugin !== plugin || !value.key.startsWith(prefix) ||
    !KEY_RANDOM.test(value.key.slice(prefix.length)) || !SECRET.test(value.secret)
  ) return undefined;
  return { key: value.key, secret: value.secret, plugin, sdkVersion: String(value.sdkVersion) };
}

/**
 * `onDoor` hears of every door found or made, so events from it are collected (door_exchanges.ts).
 * `current` gives the plugin as the worker knows it now: a plugin turned off or rebuilt while an
 * injection waited its turn is not injected.
 */
export function createInjector(
  doors: AdapterDoors,
  onDoor: (tabId: number, plugin: string, door: DoorRecord) => void = () => {},
  current?: (name: string) => SyncPlugin | undefined,
): Injector {
  /** Each tab's injections and removals, one after another. */
  const queue = createKeyedQueue<number>();

  async function inject(tabId: number, plugin: SyncPlugin): Promise<boolean> {
    refuseStale(plugin);
    const known = await doors.get(tabId, plugin.name);
    const [check] = await chrome.scripting.executeScript({
      target: { tabId },
      world: "MAIN",
      func: hasDoor,
      args: [known?.key ?? ""],
    });
    if (!check) throw new Error(`tab ${tabId} has no page to inject into`);
    const here = known?.documentId === check.documentId && check.result === true;
    if (here && known.hash === plugin.adapterHash) {
      onDoor(tabId, plugin.name, known);
      return false;
    }
    refuseStale(plugin);
    // Targets this very document: if the tab navigated meanwhile, it fails instead of recording
    // a door for a document that does not have it.
    const target = { tabId, documentIds: [check.documentId] };
    const [loaded] = await chrome.scripting.executeScript({
      target,
      world: "MAIN",
      files: [`adapters/${plugin.adapterFile}`],
    });
    const door = doorKeyOf(loaded?.result, plugin.name);
    if (!door) {
      throw new Error(
        `the ${plugin.displayName} adapter did not register in tab ${tabId}: it threw while ` +
          "loading (the page's console in DevTools shows why), or it was built by a hub-plugin " +
          "older than this extension. Rebuild it with this hub's hub-plugin.",
      );
    }
    if (here) await closeDoor(tabId, known); // the older build of the same document
    const record: DoorRecord = {
      documentId: check.documentId,
      hash: plugin.adapterHash,
      key: door.key,
      secret: door.secret,
    };
    doors.set(tabId, plugin.name, record);
    onDoor(tabId, plugin.name, record);
    return true;
  }

  /** Throws when `plugin` is off, or is no longer the build the worker knows. */
  function refuseStale(plugin: SyncPlugin) {
    const now = current ? current(plugin.name) : plugin;
    if (pluginEnabled(plugin) && pluginEnabled(now) && now!.adapterHash === plugin.adapterHash) {
      return;
    }
    throw new Error(
      `not injecting the ${plugin.displayName.slice(0, 100)} adapter: the plugin is off, removed ` +
        "or was rebuilt meanwhile. Allow it in the side panel, or call again for the new build.",
    );
  }

  async function closeDoor(tabId: number, door: DoorRecord) {
    await chrome.scripting.executeScript({
      target: { tabId, documentIds: [door.documentId] },
      world: "MAIN",
      func: doorClose,
      args: [door.key, door.secret],
    }).catch(() => {}); // the document is gone: so is its door
  }

  return {
    ensure: (tabId, plugin) => queue.run(tabId, () => inject(tabId, plugin)),
    async probe(tabId, plugin) {
      const door = await doors.get(tabId, plugin.name);
      if (!door || door.hash !== plugin.adapterHash) return { missing: true };
      const [frame] = await chrome.scripting.executeScript({
        target: { tabId, documentIds: [door.documentId] },
        world: "MAIN",
        func: doorProbe,
        args: [door.key, door.secret, plugin.settings],
      });
      return (frame?.result as AdapterResult | Missing | undefined) ?? { missing: true };
    },
    remove: (tabId, plugin) =>
      queue.run(tabId, async () => {
        const door = await doors.get(tabId, plugin);
        if (!door) return;
        doors.delete(tabId, plugin);
        await closeDoor(tabId, door);
      }),
    forget(tabId) {
      queue.forget(tabId);
      doors.forgetTab(tabId);
    },
  };
}
