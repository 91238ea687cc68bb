/**
 * Runs a child process within bounds: a time limit, an output limit per stream, and an empty
 * working folder of its own. The call returns at its deadline even when a process the child
 * started keeps the output pipes open: on timeout (or too much output) the child and its
 * descendants get SIGTERM, then SIGKILL after a short grace, and hub stops reading the pipes.
 */
import { descendantsOf, processTable, signalAll } from "./process_tree.ts";
import { concatBytes } from "../../protocol/bytes.ts";

export interface BoundedResult {
  code: number;
  stdout: string;
  stderr: string;
  /** The call ran past its time limit and was stopped. */
  timedOut: boolean;
}

export interface ChildLimits {
  /** Bytes kept per stream; more output stops the child. Default 4 MB. */
  outputCapBytes?: number;
  /** How long the child gets after SIGTERM before SIGKILL. Default 2 s. */
  killGraceMs?: number;
}

export const OUTPUT_CAP_BYTES = 4 * 1024 * 1024;
const KILL_GRACE_MS = 2_000;
/** After the child exits, how long its output pipes may stay open (held by a leftover process). */
const PIPE_GRACE_MS = 2_000;
/** The exit code reported when hub stopped the child for writing too much. */
export const OUTPUT_LIMIT_CODE = 1;

interface CappedStream {
  /** Resolves with the kept bytes once the stream ends, overflows or is cancelled. */
  done: Promise<Uint8Array>;
  overflowed: () => boolean;
  cancel: () => Promise<void>;
}

/**
 * Runs `command args` in a fresh empty folder (holding an empty node_modules, so npm looks for no
 * project config above it). Spawn errors (NotFound...) are thrown as they are.
 */
export async function runBounded(
  command: string,
  args: string[],
  timeoutMs: number,
  limits: ChildLimits = {},
): Promise<BoundedResult> {
  const cwd = await Deno.makeTempDir({ prefix: "hub-child-" });
  try {
    await Deno.mkdir(`${cwd}/node_modules`);
    const child = new Deno.Command(command, {
      args,
      cwd,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    return await supervise(child, timeoutMs, limits);
  } finally {
    await Deno.remove(cwd, { recursive: true }).catch(() => {});
  }
}

async function supervise(
  child: Deno.ChildProcess,
  timeoutMs: number,
  limits: ChildLimits,
): Promise<BoundedResult> {
  const cap = limits.outputCapBytes ?? OUTPUT_CAP_BYTES;
  let overflow!: () => void;
  const overflowed = new Promise<"overflow">((resolve) => overflow = () => resolve("overflow"));
  const out = readCapped(child.stdout, cap, overflow);
  const err = readCapped(child.stderr, cap, overflow);
  const deadline = sleep(timeoutMs, "timeout" as const);
  const status = child.status;
  try {
    const first = await Promise.race([status, deadline.promise, overflowed]);
    if (first === "timeout" || first === "overflow") {
      await stopTree(child, status, limits.killGraceMs ?? KILL_GRACE_MS);
    } else {
      const grace = sleep(PIPE_GRACE_MS, undefined);
      await Promise.race([Promise.all([out.done, err.done]), grace.promise]);
      grace.clear();
    }
    await Promise.all([out.cancel(), err.cancel()]);
    const [stdout, stderr] = await Promise.all([out.done, err.done]);
    const code = first === "timeout" || first === "overflow" ? -1 : first.code;
    return finish(first === "timeout", code, stdout, stderr, out, err, cap);
  } finally {
    deadline.clear();
  }
}

function finish(
  timedOut: boolean,
  code: number,
  stdout: Uint8Array,
  stderr: Uint8Array,
  out: CappedStream,
  err: CappedStream,
  cap: number,
): BoundedResult {
  const dec = new TextDecoder();
  const result = { code, stdout: dec.decode(stdout), stderr: dec.decode(stderr), timedOut };
  if (timedOut || !(out.overflowed() || err.overflowed())) return result;
  const which = out.overflowed() ? "its output" : "its error output";
  const mb = Math.round(cap / 1024 / 1024 * 10) / 10;
  return {
    ...result,
    code: OUTPUT_LIMIT_CODE,
    stderr: `npm error code EOUTPUTLIMIT\nnpm error the command wrote more than ${mb} MB to ` +
      `${which}, so hub stopped it and kept only the first ${mb} MB\n`,
  };
}

/** SIGTERM to the child and its descendants, then SIGKILL to those left after `graceMs`. */
async function stopTree(
  child: Deno.ChildProcess,
  status: Promise<Deno.CommandStatus>,
  graceMs: number,
): Promise<void> {
  const first = await descendantsOf(child.pid);
  kill(child, "SIGTERM");
  await signalAll(first, "TERM");
  const grace = sleep(graceMs, undefined);
  await Promise.race([status, grace.promise]);
  grace.clear();
  const alive = new Set((await processTable()).map(([pid]) => pid));
  const late = await descendantsOf(child.pid);
  kill(child, "SIGKILL");
  await signalAll([...new Set([...first.filter((pid) => alive.has(pid)), ...late])], "KILL");
  const settle = sleep(graceMs, undefined);
  await Promise.race([status, settle.promise]);
  settle.clear();
}

function kill(child: Deno.ChildProcess, signal: Deno.Signal): void {
  try {
    child.kill(signal);
  } catch {
    // already exited
  }
}

/** Reads `stream` keeping at most `cap` bytes; more calls `onOverflow` and stops reading. */
function readCapped(
  stream: ReadableStream<Uint8Array>,
  cap: number,
  onOverflow: () => void,
): CappedStream {
  const reader = stream.getReader();
  let over = false;
  let size = 0;
  const chunks: Uint8Array[] = [];
  const done = (async () => {
    try {
      while (true) {
        const { value, done } = await reader.read();
        if (done) break;
        if (size + value.length > cap) {
          chunks.push(value.subarray(0, cap - size));
          size = cap;
          over = true;
          onOverflow();
          break;
        }
        chunks.push(value);
        size += value.length;
      }
    } catch {
      // the pipe was closed under us (cancelled): keep what was read
    }
    return concatBytes(chunks);
  })();
  return {
    done,
    overflowed: () => over,
    cancel: () => reader.cancel().catch(() => {}),
  };
}

function sleep<T>(ms: number, value: T): { promise: Promise<T>; clear: () => void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const promise = new Promise<T>((resolve) => timer = setTimeout(() => resolve(value), ms));
  return { promise, clear: () => clearTimeout(timer) };
}
