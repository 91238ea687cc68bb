/**
 * Reads a tab's console through the debugger protocol, without anything in the page: Chromium's
 * V8 keeps the last 1000 console messages and uncaught errors of each document, and replays them
 * as `Runtime.consoleAPICalled` / `Runtime.exceptionThrown` when a client sends `Runtime.enable`.
 * The debugger is attached for the read only (Chromium shows its "started debugging this browser"
 * bar meanwhile) and detached at once; reads of one tab take turns.
 */
import { type ConsoleEntry, LEVEL_OF_TYPE } from "./console_entries.ts";
import type { ConsoleLevel } from "../../../../protocol/browser_methods/page.ts";
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
  attached<T>(tabId: number, work: (session: Session) => Promise<T>): Promise<T>;
}

/** The time bounds of a read (tests shorten them). */
export interface DebuggerBounds {
  sendMs: number;
  readMs: number;
}

/** Made once by whoever creates the browser methods' context. */
export function createTabDebugger(
  bounds: DebuggerBounds = { sendMs: SEND_MS, readMs: READ_MS },
): TabDebugger {
  const reads = new Map<number, Promise<unknown>>();
  return {
    attached(tabId, work) {
      const previous = reads.get(tabId) ?? Promise.resolve();
      const next = previous.catch(() => {}).then(() => attached(tabId, bounds, work));
      reads.set(tabId, next);
      void next.catch(() => {}).finally(() => {
        if (reads.get(tabId) === next) reads.delete(tabId);
      });
      return next;
    },
  };
}

/** The longest one debugger command may take; a page stuck in its own loop cannot hold the read. */
const SEND_MS = 4_000;
/** The longest a whole read may take, well under the hub's tool timeout; then entries go unformatted. */
const READ_MS = 20_000;

/** The `cause` of the error `bounded` throws: a command that did not answer within its bound. */
const SEND_TIMEOUT = Symbol("send timeout");

/** Whether `error` is the one `bounded` throws when its command did not answer in time. */
function isSendTimeout(error: unknown): boolean {
  return error instanceof Error && error.cause === SEND_TIMEOUT;
}

/** `promise`, or an error `isSendTimeout` knows after `ms`. */
export function bounded<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${what} did not answer within ${ms} ms`, { cause: SEND_TIMEOUT })),
      ms,
    );
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** A read's debugger session: bounded commands, and whether page code it ran is stuck for good. */
export interface Session {
  send: Send;
  readMs: number;
  /** True once page code run for the read could not be stopped: run no more page code. */
  stuck(): boolean;
}

async function attached<T>(
  tabId: number,
  { sendMs, readMs }: DebuggerBounds,
  work: (session: Session) => Promise<T>,
): Promise<T> {
  const target = { tabId };
  const attaching = chrome.debugger.attach(target, PROTOCOL);
  await bounded(attaching, sendMs, "attach").catch((error) => {
    // An attach that answers after its bound is let go of at once.
    if (isSendTimeout(error)) {
      void attaching.then(() => chrome.debugger.detach(target)).catch(() => {});
    }
    throw new Error(
      `Chromium did not let the extension attach its debugger to tab ${tabId} to read the ` +
        `console (${String((error as Error)?.message ?? error).slice(0, 200)}). Another ` +
        "extension may be debugging the tab; close it and try again.",
    );
  });
  let stuck = false;
  const send: Send = (method, params) =>
    bounded(
      chrome.debugger.sendCommand(target, method, params) as Promise<Params>,
      sendMs,
      method,
    ).catch(async (error) => {
      // Page code run for the read (a Proxy trap that loops) is stopped at once.
      if (isSendTimeout(error) && method === "Runtime.callFunctionOn") {
        stuck = !(await stopPageCode(target, sendMs));
      }
      throw error;
    });
  try {
    return await work({ send, readMs, stuck: () => stuck });
  } finally {
    // Every step of the work is bounded, so this always runs.
    await bounded(chrome.debugger.detach(target), sendMs, "detach").catch(() => {});
  }
}

/**
 * Stops the page code a read is running: pauses it and resumes with `terminateOnResume`, which
 * throws it out (the page runs again). Chromium refuses `Runtime.terminateExecution` to extensions
 * ("not allowed for untrusted clients"), so this needs `Debugger.enable` before the page call.
 * True when the page was stopped.
 */
async function stopPageCode(target: { tabId: number }, ms: number): Promise<boolean> {
  let listener = (_source: chrome.debugger.Debuggee, _method: string) => {};
  const paused = new Promise<void>((resolve) => {
    listener = (source, method) => {
      if (source.tabId === target.tabId && method === "Debugger.paused") resolve();
    };
    chrome.debugger.onEvent.addListener(listener);
  });
  const command = (method: string, params?: Params) =>
    bounded(chrome.debugger.sendCommand(target, method, params) as Promise<unknown>, ms, method);
  try {
    await command("Debugger.pause");
    await bounded(paused, ms, "Debugger.paused");
    await command("Debugger.resume", { terminateOnResume: true });
    return true;
  } catch {
    return false;
  } finally {
    chrome.debugger.onEvent.removeListener(listener);
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
  return tabs.attached(tabId, async (session) => {
    const { send } = session;
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
      // What lets the read stop page code it runs (stopPageCode); without it none is run.
      // Breakpoints off: `debugger` statements in the page do not pause it meanwhile.
      const canStop = await send("Debugger.enable", { maxScriptsCacheSize: 0 })
        .then(() => send("Debugger.setBreakpointsActive", { active: false }))
        .then(() => true, () => false);
      // Formatted while attached: the logged objects' ids die with the session or the clear.
      const kept = messages.filter((m) => query.keep(m.level));
      const newest = kept.slice(Math.max(kept.length - query.limit, 0));
      const deadline = Date.now() + session.readMs;
      const inTime = () => canStop && !session.stuck() && Date.now() < deadline;
      const entries = await formatAll(newest, send, inTime);
      if (session.stuck()) return { total: kept.length, entries }; // detaching ends the rest
      if (query.clear) await send("Runtime.discardConsoleEntries");
      await send("Debugger.disable").catch(() => {}); // detaching disables them too
      await send("Runtime.disable").catch(() => {});
      return { total: kept.length, entries };
    } finally {
      chrome.debugger.onEvent.removeListener(onEvent);
    }
  });
}

/** What an entry that the page did not format in time says after what is known of it. */
export const NOT_FORMATTED = "[could not be formatted in time]";

/**
 * The entries formatted one at a time (one page call in flight, so none is left queued behind a
 * stuck one); page calls run only while `inTime()`. Entries left without one, or whose page call
 * timed out, keep what the debugger described of their arguments, marked NOT_FORMATTED.
 */
async function formatAll(messages: Message[], send: Send, inTime: () => boolean) {
  const entries: ConsoleEntry[] = [];
  for (const message of messages) {
    entries.push(await entryOf(message, send, inTime));
  }
  return entries;
}

/** `text` cut to MAX_ENTRY_CHARS here in the worker, whatever the page's formatter returned. */
function cut(text: string): string {
  return text.length > MAX_ENTRY_CHARS
    ? String.prototype.slice.call(text, 0, MAX_ENTRY_CHARS) + "…[truncated]"
    : text;
}

function described(args: RemoteObject[]): string {
  return cut(args.map((a) => String(a.description ?? a.value).slice(0, MAX_ENTRY_CHARS)).join(" "));
}

function unformatted(message: Message): ConsoleEntry {
  const base = { time: message.time, level: message.level };
  if (message.text !== undefined) {
    return { ...base, text: cut(message.text), source: message.source };
  }
  return { ...base, text: cut(`${described(message.args ?? [])} ${NOT_FORMATTED}`) };
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

/** One entry; its page call (for object arguments) only while `inTime()`. */
async function entryOf(
  message: Message,
  send: Send,
  inTime: () => boolean,
): Promise<ConsoleEntry> {
  const base = { time: message.time, level: message.level };
  if (message.text !== undefined) {
    return { ...base, text: cut(message.text), source: message.source };
  }
  const args = message.args ?? [];
  const object = args.find((a) => a.objectId !== undefined);
  if (!object) return { ...base, text: cut(formatArgs(args.map(primitive))) };
  if (!inTime()) return unformatted(message);
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
    if (typeof text === "string") return { ...base, text: cut(text) };
  } catch (error) {
    if (isSendTimeout(error)) return unformatted(message);
    // the object is gone (its document too): describe what is known
  }
  return { ...base, text: described(args) };
}
