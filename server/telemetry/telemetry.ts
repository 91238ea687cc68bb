/**
 * Telemetry of a running hub: counts calls (from the audit entries, a few increments on the call
 * path; only calls made while telemetry is on are kept: gated_counter.ts), emits `hub_started` once plugins are
 * loaded and `usage` every hour and at stop (when there were calls), and sends them in batches
 * from a bounded queue, off every request. Before each event and each send it asks the decision
 * again, so a `telemetry: false` written to config.json (`hub telemetry disable`) stops it without
 * a restart and drops what was waiting. The first time it makes the installation id it logs, at
 * info, that telemetry is on and how to turn it off. In debug mode each event goes to stderr as
 * one `telemetry: {json}` line and nothing is sent. Stopping waits at most `stopWaitMs` for a last
 * send, then abandons it. Send errors go to the debug log only, and only the first few.
 */
import type { AuditEntry } from "../../protocol/audit.ts";
import { errorText } from "../../protocol/clip.ts";
import { type TelemetryDecision, telemetryDecision } from "../../core/telemetry/decision.ts";
import { ensureInstallationId } from "../../core/telemetry/installation_id.ts";
import { telemetryNotice } from "../../core/telemetry/notice.ts";
import { loadOnce } from "../../core/cache/load_once.ts";
import type { TelemetrySettings } from "../../core/telemetry/settings.ts";
import type { Logger } from "../log/logger_interface.ts";
import { hubStartedEvent, type PluginCounts, type TelemetryEvent, usageEvent } from "./events.ts";
import { createGatedCounter, type GatedCounter } from "./gated_counter.ts";
import { abortableSleep, type SendOptions } from "./sender.ts";
import { type BatchSender, createBatchSender } from "./batch_sender.ts";

export interface TelemetryOptions {
  settings: TelemetrySettings;
  configDir: string;
  /** The config's `telemetry` field now (the hub's config follows config.json). */
  configEnabled: () => boolean;
  mode: "dev" | "production";
  logger: Logger;
  clock?: () => number;
  fetch?: typeof fetch;
  /** Where debug mode prints its lines; default stderr. */
  print?: (line: string) => void;
  /** Reads or makes the id; calls `onCreated` when it made it. Default: the id file. */
  installationId?: (configDir: string, onCreated: () => void) => Promise<string>;
  /** Wait after the first queued event before a send, gathering a batch; default 1 s. */
  batchDelayMs?: number;
  /** Between two `usage` events; default one hour. */
  usageIntervalMs?: number;
  /** The longest `stop` waits for a last send; default 300 ms. */
  stopWaitMs?: number;
  /** Events kept while the endpoint cannot be reached; older ones are dropped. Default 100. */
  maxQueued?: number;
  send?: Pick<SendOptions, "timeoutMs" | "backoffMs" | "sleep">;
}

export interface Telemetry {
  /** Counts one finished call (outcome, category and kind of tool only). */
  recordCall(entry: Pick<AuditEntry, "plugin" | "success" | "error">): void;
  /** Emits `hub_started` with the plugin counts. */
  started(plugins: PluginCounts): void;
  /** Emits the last `usage`, tries one last send for at most `stopWaitMs`, then stops. */
  stop(): Promise<void>;
}

export const MAX_QUEUED_EVENTS = 100;
const MAX_ERROR_LINES = 5;

/** What the parts of telemetry share. */
interface Parts {
  options: TelemetryOptions;
  clock: () => number;
  decision: () => TelemetryDecision;
  /** On, and able to send or print. */
  active: () => boolean;
  debugLine: (message: string) => void;
  sender?: BatchSender;
}

export function createTelemetry(options: TelemetryOptions): Telemetry {
  const parts = telemetryParts(options);
  announce(options, parts.decision());
  const emitter = createEmitter(parts);
  const calls = createGatedCounter(parts.active, parts.clock);
  const usage = startUsage(parts, calls, emitter.emit);
  let stopped = false;
  return {
    recordCall: (entry) => calls.record(entry),
    started(plugins) {
      if (stopped) return;
      emitter.emit((id, now) => hubStartedEvent(id, now, { mode: options.mode, plugins }));
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      usage.stop();
      calls.close();
      await lastSend(parts, emitter.settled);
    },
  };
}

function telemetryParts(options: TelemetryOptions): Parts {
  const { settings } = options;
  const endpoint = "endpoint" in settings.endpoint ? settings.endpoint.endpoint : undefined;
  const decision = () => telemetryDecision(options.configEnabled(), settings.env);
  const active = () => decision().enabled && (settings.debug || endpoint !== undefined);
  const debugLine = boundedDebugLog(options.logger);
  const sender = endpoint === undefined || settings.debug ? undefined : createBatchSender({
    endpoint,
    active,
    batchDelayMs: options.batchDelayMs ?? 1_000,
    maxQueued: options.maxQueued ?? MAX_QUEUED_EVENTS,
    fetch: options.fetch,
    send: options.send,
    onProblem: debugLine,
  });
  return { options, clock: options.clock ?? Date.now, decision, active, debugLine, sender };
}

type Build = (id: string, now: number) => TelemetryEvent;

/** Builds an event when telemetry is on, then prints (debug mode) or queues it. */
function createEmitter(parts: Parts) {
  const { options, active, debugLine } = parts;
  const print = options.print ?? ((line: string) => console.error(line));
  const made = () => options.logger.info(telemetryNotice(parts.decision()).join(" "));
  const installationId = loadOnce(() =>
    (options.installationId ?? ensureInstallationId)(options.configDir, made)
  );
  const pending = new Set<Promise<void>>();

  async function build(make: Build): Promise<void> {
    let event: TelemetryEvent;
    try {
      event = make(await installationId(), parts.clock());
    } catch (error) {
      return debugLine(`cannot read or create the installation id: ${errorText(error)}`);
    }
    if (!active()) return;
    if (options.settings.debug) print(`telemetry: ${JSON.stringify(event)}`);
    else parts.sender?.push(event);
  }

  return {
    emit(make: Build): void {
      if (!active()) return;
      const work = build(make);
      pending.add(work);
      work.finally(() => pending.delete(work));
    },
    /** Resolves when every event under construction is printed or queued. */
    settled: () => Promise.allSettled([...pending]).then(() => {}),
  };
}

/** `usage` every interval and once at stop, when calls were kept since the previous one. */
function startUsage(parts: Parts, calls: GatedCounter, emit: (make: Build) => void) {
  let periodStart = parts.clock();
  function emitUsage() {
    const counts = calls.take();
    const now = parts.clock();
    const period = now - periodStart;
    periodStart = now;
    if (counts) emit((id, t) => usageEvent(id, t, period, counts));
  }
  const timer = setInterval(emitUsage, parts.options.usageIntervalMs ?? 3_600_000);
  Deno.unrefTimer(timer);
  return {
    stop() {
      clearInterval(timer);
      emitUsage();
    },
  };
}

/** Waits for the events under way and their send, at most `stopWaitMs`, then abandons the send. */
async function lastSend(parts: Parts, settled: () => Promise<void>): Promise<void> {
  const last = (async () => {
    await settled();
    await parts.sender?.flush();
  })();
  const timer = new AbortController();
  await Promise.race([last, abortableSleep(parts.options.stopWaitMs ?? 300, timer.signal)]);
  timer.abort();
  parts.sender?.stop(); // abandons a send still under way
  await last;
}

/** The refused endpoint as a warning, and on or off with the reason as a debug line. */
function announce(options: TelemetryOptions, first: TelemetryDecision): void {
  const { settings, logger } = options;
  if ("refused" in settings.endpoint && !settings.debug) logger.warn(settings.endpoint.refused);
  logger.debug(
    `telemetry: ${first.enabled ? "on" : "off"} (${first.text})` +
      (first.note ? `. ${first.note}` : "") +
      (settings.debug ? "; debug mode prints events and sends nothing" : ""),
  );
}

/** Debug log lines about telemetry, at most MAX_ERROR_LINES, then one line saying so. */
function boundedDebugLog(logger: Logger): (message: string) => void {
  let lines = 0;
  return (message) => {
    if (lines > MAX_ERROR_LINES) return;
    lines++;
    logger.debug(
      lines > MAX_ERROR_LINES
        ? "telemetry: further errors are not logged"
        : `telemetry: ${errorText(message, 300)}`,
    );
  };
}
