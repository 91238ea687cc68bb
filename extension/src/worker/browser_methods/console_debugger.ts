/**
 * Reads a tab's console through the debugger protocol, without anything in the page: Chromium's
 * V8 keeps the last 1000 console messages and uncaught errors of each document, and replays them
 * as `Runtime.consoleAPICalled` / `Runtime.exceptionThrown` when a client sends `Runtime.enable`.
 * The debugger is attached for the read only (Chromium shows its "started debugging this browser"
 * bar meanwhile) and detached at once; reads of one tab take turns.
 */
import { type ConsoleEntry, type ConsoleLevel, LEVEL_OF_TYPE } from "./console_entries.ts";
import { formatArgs, formatSource, MAX_ENTRY_CHARS } from "../../page/console_format.ts";

const PROTOCOL = "1.3";

interface RemoteObject {
  type: string;
  subtype?: string;
  value?: unknown;
  unserializableValue?: string;
  description?: string;
  objectId?: string;
}

interface Message {
  time: number;
  level: ConsoleLevel;
  source?: ConsoleEntry["source"];
  /** The console call's arguments, or the text of an uncaught error. */
  args?: RemoteObject[];
  text?: string;
}

/** Which messages to read: the levels to keep, and at most how many of the newest. */
export interface ConsoleQuery {
  keep(level: ConsoleLevel): boolean;
  limit: number;
  /** V8 forgets its messages after the read. */
  clear: boolean;
}

type Params = Record<string, unknown>;
type Send = (method: string, params?: Params) => Promise<Params>;

/** The debugger sessions of the extension: one per tab at a time. */
export interface TabDebugger {
  /** Runs `work` with the debugger attached to the tab, after the tab's earlier reads. */
  attached<T>(tabId: number, work: (send: Send) => Promise<T>): Promise<T>;
}

/** Made once by whoever creates the browser methods' context. */
export function createTabDebugger(): TabDebugger {
  const reads = new Map<number, Promise<unknown>>();
  return {
    attached(tabId, work) {
      const previous = reads.get(tabId) ?? Promise.resolve();
      const next = previous.catch(() => {}).then(() => attached(tabId, work));
      reads.set(tabId, next);
      void next.catch(() => {}).finally(() => {
        if (reads.get(tabId) === next) reads.delete(tabId);
      });
      return next;
    },
  };
}

async function attached<T>(tabId: number, work: (send: Send) => Promise<T>): Promise<T> {
  const target = { tabId };
  await chrome.debugger.attach(target, PROTOCOL).catch((error) => {
    throw new Error(
      `Chromium did not let the extension attach its debugger to tab ${tabId} to read the ` +
        `console (${String((error as Error)?.message ?? error).slice(0, 200)}). Another ` +
        "extension may be debugging the tab; close it and try again.",
    );
  });
  try {
    return await work((method, params) =>
      chrome.debugger.sendCommand(target, method, params) as Promise<Params>
    );
  } finally {
    await chrome.debugger.detach(target).catch(() => {});
  }
}

/**
 * The main frame's console messages and uncaught errors that `query` keeps, as V8 kept them: how
 * many there are, and the newest `query.limit` of them formatted, oldest first.
 */
export function readConsole(
  tabs: TabDebugger,
  tabId: number,
  query: ConsoleQuery,
): Promise<{ total: number; entries: ConsoleEntry[] }> {
  return tabs.attached(tabId, async (send) => {
    const contexts = new Set<number>();
    const messages: Message[] = [];
    let mainFrame = "";
    const onEvent = (source: chrome.debugger.Debuggee, method: string, params?: object) => {
      if (source.tabId === tabId) collect(method, (params ?? {}) as Params);
    };
    function collect(method: string, p: Params) {
      if (method === "Runtime.executionContextCreated") {
        const context = p.context as { id: number; auxData?: Params };
        if (context?.auxData?.isDefault === true && context.auxData.frameId === mainFrame) {
          contexts.add(context.id);
        }
      } else if (method === "Runtime.consoleAPICalled") {
        const level = LEVEL_OF_TYPE[p.type as string];
        if (!level || !contexts.has(p.executionContextId as number)) return;
        messages.push({ time: Number(p.timestamp), level, args: p.args as RemoteObject[] });
      } else if (method === "Runtime.exceptionThrown") {
        const details = p.exceptionDetails as Params | undefined;
        if (!details || !contexts.has(details.executionContextId as number)) return;
        messages.push(uncaught(Number(p.timestamp), details));
      }
    }
    chrome.debugger.onEvent.addListener(onEvent);
    try {
      const tree = await send("Page.getFrameTree") as { frameTree?: { frame?: { id?: string } } };
      mainFrame = tree.frameTree?.frame?.id ?? "";
      await send("Runtime.enable"); // V8 replays what it kept before it answers
      // Formatted while attached: the logged objects' ids die with the session or the clear.
      const kept = messages.filter((m) => query.keep(m.level));
      const newest = kept.slice(Math.max(kept.length - query.limit, 0));
      const entries = await Promise.all(newest.map((m) => entryOf(m, send)));
      if (query.clear) await send("Runtime.discardConsoleEntries");
      await send("Runtime.disable");
      return { total: kept.length, entries };
    } finally {
      chrome.debugger.onEvent.removeListener(onEvent);
    }
  });
}

function uncaught(time: number, details: Params): Message {
  const heading = String(details.text ?? "Uncaught");
  const error = details.exception as RemoteObject | undefined;
  const what = error ? String(error.description ?? error.value ?? "") : "";
  const rejection = heading.startsWith("Uncaught (in promise)");
  return {
    time,
    level: "error",
    source: rejection ? "unhandledrejection" : "uncaught",
    text: what ? `${heading} ${what}` : heading,
  };
}

/** A primitive argument's value, as the page had it. */
function primitive(arg: RemoteObject): unknown {
  if (arg.unserializableValue !== undefined) {
    const u = arg.unserializableValue;
    return u.endsWith("n") ? BigInt(u.slice(0, -1)) : Number(u);
  }
  if (arg.type === "symbol") return Symbol(arg.description?.replace(/^Symbol\((.*)\)$/, "$1"));
  return arg.value;
}

/** formatArgs as the debugger runs it in the page, on the logged values themselves. */
const FORMAT_IN_PAGE = formatSource(MAX_ENTRY_CHARS);

async function entryOf(message: Message, send: Send): Promise<ConsoleEntry> {
  const base = { time: message.time, level: message.level };
  if (message.text !== undefined) {
    return { ...base, text: message.text.slice(0, MAX_ENTRY_CHARS + 100), source: message.source };
  }
  const args = message.args ?? [];
  const object = args.find((a) => a.objectId !== undefined);
  if (!object) return { ...base, text: formatArgs(args.map(primitive)) };
  try {
    const reply = await send("Runtime.callFunctionOn", {
      objectId: object.objectId,
      functionDeclaration: FORMAT_IN_PAGE,
      arguments: args.map((a) =>
        a.objectId !== undefined
          ? { objectId: a.objectId }
          : a.unserializableValue !== undefined
          ? { unserializableValue: a.unserializableValue }
          : { value: a.value }
      ),
      returnByValue: true,
      silent: true,
    }) as { result?: { value?: unknown } };
    const text = reply.result?.value;
    if (typeof text === "string") return { ...base, text };
  } catch {
    // the object is gone (its document too): describe what is known
  }
  return { ...base, text: args.map((a) => a.description ?? String(a.value)).join(" ") };
}
