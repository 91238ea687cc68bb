/**
 * The doors of the adapters the extension injected (protocol/adapter.ts): per tab and plugin, the
 * document it went into, the build's hash, and the door's key and secret. They live in memory and
 * in `chrome.storage.session` (kept while the browser runs, readable by the extension's own pages
 * and worker only), so a restarted service worker still reaches adapters it injected earlier
 * instead of injecting them a second time.
 */

export interface DoorRecord {
  documentId: string;
  hash: string;
  key: string;
  secret: string;
}

export interface AdapterDoors {
  get(tabId: number, plugin: string): Promise<DoorRecord | undefined>;
  set(tabId: number, plugin: string, record: DoorRecord): void;
  delete(tabId: number, plugin: string): void;
  /**
   * The tab closed, or its main frame committed document `current`: the doors of its other
   * documents are gone, and no call may go to a door the tab's new page might imitate.
   */
  forgetTab(tabId: number, current?: string): void;
}

const STORAGE_KEY = "adapterDoors";

type Saved = Record<string, DoorRecord>;

const idOf = (tabId: number, plugin: string) => `${tabId}\n${plugin}`;

export function createAdapterDoors(): AdapterDoors {
  let doors: Map<string, DoorRecord> | undefined;
  let loading: Promise<Map<string, DoorRecord>> | undefined;
  let saving = Promise.resolve();

  function load(): Promise<Map<string, DoorRecord>> {
    if (doors) return Promise.resolve(doors);
    loading ??= (async () => {
      const stored = await chrome.storage.session.get(STORAGE_KEY).catch(() => ({}));
      const saved = ((stored as Record<string, unknown>)[STORAGE_KEY] ?? {}) as Saved;
      // Entries set while loading win over the stored ones.
      doors = new Map([...Object.entries(saved), ...(doors ?? [])]);
      return doors;
    })();
    return loading;
  }

  function save() {
    const snapshot = Object.fromEntries(doors ?? []);
    saving = saving.then(() => chrome.storage.session.set({ [STORAGE_KEY]: snapshot }))
      .catch((error) => console.warn("hub: cannot keep the adapter doors", error));
  }

  function change(apply: (map: Map<string, DoorRecord>) => void) {
    void load().then((map) => {
      apply(map);
      save();
    });
  }

  return {
    async get(tabId, plugin) {
      return (doors ?? await load()).get(idOf(tabId, plugin));
    },
    set(tabId, plugin, record) {
      doors?.set(idOf(tabId, plugin), record);
      change((map) => map.set(idOf(tabId, plugin), record));
    },
    delete(tabId, plugin) {
      doors?.delete(idOf(tabId, plugin));
      change((map) => map.delete(idOf(tabId, plugin)));
    },
    forgetTab(tabId, current) {
      const gone = (id: string, door: DoorRecord) =>
        id.startsWith(`${tabId}\n`) && (current === undefined || door.documentId !== current);
      for (const [id, door] of doors ?? []) if (gone(id, door)) doors!.delete(id);
      change((map) => {
        for (const [id, door] of [...map]) if (gone(id, door)) map.delete(id);
      });
    },
  };
}
