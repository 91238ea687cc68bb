/**
 * Reads a tab's console through the debugger protocol, without anything in the page: Chromium's
 * V8 keeps the last 1000 console messages and uncaught errors of each document, and replays them
 * as `Runtime.consoleAPICalled` / `Runtime.exceptionThrown` when a client sends `Runtime.enable`.
 * The read uses the tab's shared debugger session (debugger_sessions.ts: attached when needed,
 * detached when idle) and leaves the Runtime and Debugger domains as it found them; reads of one
 * tab take turns.
 */
import { type ConsoleEntry, LEVEL_OF_TYPE } from "./console_entries.ts";
import type { ConsoleLevel } from "../../../../protocol/browser_methods/page.ts";
import { formatArgs, formatSource, MAX_ENTRY_CHARS } from "../../page/console_format.ts";
import {
  bounded,
  type DebuggerSessions,
  domainEnabled,
  isSendTimeout,
  type TabSession,
} from "../debugger_sessions.ts";
import { createKeyedQueue, type KeyedQueue } from "../keyed_queue.ts";

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

/**
 * The longest a whole read may take, well under the hub's tool timeout; then entries go
 * unformatted. Each command is bounded by the sessions' own bound.
 */
export const READ_MS = 20_000;
/** The longest the page may take to pause when a read stops page code it ran. */
export const PAUSE_MS = 4_000;

/** The time bounds of a read (tests shorten them). */
export interface ReadBounds {
  readMs: number;
  pauseMs: number;
}

/** Per sessions object, the console reads of each tab, one after another. */
const queues = new WeakMap<DebuggerSessions, KeyedQueue<number>>();

function readsOf(sessions: DebuggerSessions): KeyedQueue<number> {
  let queue = queues.get(sessions);
  if (!queue) queues.set(sessions, queue = createKeyedQueue<number>());
  return queue;
}

/** A read's debugger session: bounded commands, and whether page code it ran is stuck for good. */
interface Session {
  send: Send;
  readMs: number;
  /** True once page code run for the read could not be stopped: run no more page code. */
  stuck(): boolean;
}

/**
 * Stops the page code a read is running: pauses it and resumes with `terminateOnResume`, which
 * throws it out (the page runs again). Chromium refuses `Runtime.terminateExecution` to extensions
 * ("not allowed for untrusted clients"), so this needs `Debugger.enable` before the page call.
 * True when the page was stopped.
 */
async function stopPageCode(
  sessions: DebuggerSessions,
  session: TabSession,
  pauseMs: number,
): Promise<boolean> {
  let resolvePaused = () => {};
  const paused = new Promise<void>((resolve) => resolvePaused = resolve);
  const stop = sessions.onEvent((event) => {
    if (
      event.tabId === session.tabId && event.sessionId === undefined &&
      event.method === "Debugger.paused"
    ) resolvePaused();
  });
  try {
    await session.send("Debugger.pause");
    await bounded(paused, pauseMs, "Debugger.paused");
    await session.send("Debugger.resume", { terminateOnResume: true });
    return true;
  } catch {
    return false;
  } finally {
    stop();
  }
}

/**
 * The main frame's console messages and uncaught errors that `query` keeps, as V8 kept them: how
 * many there are, and the newest `query.limit` of them formatted, oldest first.
 */
export function readConsole(
  sessions: DebuggerSessions,
  tabId: number,
  query: ConsoleQuery,
  bounds: ReadBounds = { readMs: READ_MS, pauseMs: PAUSE_MS },
): Promise<{ total: number; entries: ConsoleEntry[] }> {
  return readsOf(sessions).run(tabId, async () => {
    const tab = await sessions.session(tabId);
    let stuck = false;
    const send: Send = (method, params) =>
      tab.send<Params>(method, params).catch(async (error) => {
        // Page code run for the read (a Proxy trap that loops) is stopped at once.
        if (isSendTimeout(error) && method === "Runtime.callFunctionOn") {
          stuck = !(await stopPageCode(sessions, tab, bounds.pauseMs));
        }
        throw error;
      });
    return await read(sessions, tab, { send, readMs: bounds.readMs, stuck: () => stuck }, query);
  });
}

async function read(
  sessions: DebuggerSessions,
  tab: TabSession,
  session: Session,
  query: ConsoleQuery,
): Promise<{ total: number; entries: ConsoleEntry[] }> {
  const { send } = session;
  const contexts = new Set<number>();
  const messages: Message[] = [];
  let mainFrame = "";
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
  let listening = false;
  const stop = sessions.onEvent((event) => {
    if (listening && event.tabId === tab.tabId && event.sessionId === undefined) {
      collect(event.method, event.params);
    }
  });
  // What another user of the shared session turned on stays on after the read.
  const runtimeWasOn = domainEnabled(tab, "Runtime");
  const debuggerWasOn = domainEnabled(tab, "Debugger");
  try {
    const tree = await send("Page.getFrameTree") as { frameTree?: { frame?: { id?: string } } };
    mainFrame = tree.frameTree?.frame?.id ?? "";
    // V8 replays what it kept only to a fresh Runtime.enable, before it answers.
    if (runtimeWasOn) await send("Runtime.disable");
    listening = true;
    await send("Runtime.enable");
    // What lets the read stop page code it runs (stopPageCode); without it none is run.
    // Breakpoints off: `debugger` statements in the page do not pause it meanwhile.
    const canStop = await send("Debugger.enable", { maxScriptsCacheSize: 0 })
      .then(() => debuggerWasOn ? {} : send("Debugger.setBreakpointsActive", { active: false }))
      .then(() => true, () => false);
    // Formatted while the objects live: the clear releases them.
    const kept = messages.filter((m) => query.keep(m.level));
    const newest = kept.slice(Math.max(kept.length - query.limit, 0));
    const deadline = Date.now() + session.readMs;
    const inTime = () => canStop && !session.stuck() && Date.now() < deadline;
    const entries = await formatAll(newest, send, inTime);
    // Page code that could not be stopped keeps the page busy: no more commands for it.
    if (session.stuck()) return { total: kept.length, entries };
    if (query.clear) await send("Runtime.discardConsoleEntries");
    if (!debuggerWasOn) await send("Debugger.disable").catch(() => {});
    if (!runtimeWasOn) await send("Runtime.disable").catch(() => {});
    return { total: kept.length, entries };
  } finally {
    stop();
  }
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
