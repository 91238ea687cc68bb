/**
 * Telemetry of a running hub: counts calls (from the audit entries, a few increments on the call
 * path), emits `hub_started` once plugins are loaded and `usage` every hour and at stop (when
 * there were calls), and sends them in batches from a bounded queue, off every request. Before each
 * event and each send it asks the decision again, so a `telemetry: false` written to config.json
 * (`hub telemetry disable`) stops it without a restart and drops what was waiting. In debug mode
 * each event goes to stderr as one `telemetry: {json}` line and nothing is sent. Stopping waits
 * at most `stopWaitMs` for a last send, then abandons it. Send errors go to the debug log only,
 * and only the first few.
 */
import type { AuditEntry } from "../../protocol/audit.ts";
import { errorText } from "../../protocol/clip.ts";
import { type TelemetryDecision, telemetryDecision } from "../../core/telemetry/decision.ts";
import { ensureInstallationId } from "../../core/telemetry/installation_id.ts";
import type { TelemetrySettings } from "../../core/telemetry/settings.ts";
import type { Logger } from "../log/logger.ts";
import { hubStartedEvent, type PluginCounts, type TelemetryEvent, usageEvent } from "./events.ts";
import { createUsageCounter } from "./usage_counter.ts";
import { abortableSleep, type SendOptions } from "./sender.ts";
import { createBatchSender } from "./batch_sender.ts";

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
  installationId?: (configDir: string) => Promise<string>;
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
  decision(): TelemetryDecision;
  /** Emits the last `usage`, tries one last send for at most `stopWaitMs`, then stops. */
  stop(): Promise<void>;
}

export const MAX_QUEUED_EVENTS = 100;
const MAX_ERROR_LINES = 5;

export function createTelemetry(options: TelemetryOptions): Telemetry {
  const { settings, logger } = options;
  const clock = options.clock ?? Date.now;
  const print = options.print ?? ((line: string) => console.error(line));
  const counter = createUsageCounter();
  const endpoint = "endpoint" in settings.endpoint ? settings.endpoint.endpoint : undefined;
  const decision = () => telemetryDecision(options.configEnabled(), settings.env);
  const active = () => decision().enabled && (settings.debug || endpoint !== undefined);
  const debugLine = boundedDebugLog(logger);
  announce(options, decision());
  const sender = endpoint === undefined || settings.debug ? undefined : createBatchSender({
    endpoint,
    active,
    batchDelayMs: options.batchDelayMs ?? 1_000,
    maxQueued: options.maxQueued ?? MAX_QUEUED_EVENTS,
    fetch: options.fetch,
    send: options.send,
    onProblem: debugLine,
  });
  const installationId = onceUntilItFails(() =>
    (options.installationId ?? ensureInstallationId)(options.configDir)
  );
  const pending = new Set<Promise<void>>();

  /** Builds an event when telemetry is on, then prints (debug mode) or queues it. */
  function emit(build: (id: string, now: number) => TelemetryEvent): void {
    if (!active()) return;
    const work = (async () => {
      let event: TelemetryEvent;
      try {
        event = build(await installationId(), clock());
      } catch (error) {
        return debugLine(`cannot read or create the installation id: ${errorText(error)}`);
      }
      if (!active()) return;
      if (settings.debug) print(`telemetry: ${JSON.stringify(event)}`);
      else sender?.push(event);
    })();
    pending.add(work);
    work.finally(() => pending.delete(work));
  }

  // Calls made while telemetry is off are not counted (a later enable must not report them). The
  // call path asks the decision at most once a second: a config edit counts within that second.
  let checkedAt = -Infinity;
  let wasActive = false;
  function activeRecently(): boolean {
    const now = clock();
    if (now - checkedAt >= 1_000 || now < checkedAt) {
      checkedAt = now;
      wasActive = active();
    }
    return wasActive;
  }

  let periodStart = clock();
  function emitUsage() {
    const calls = counter.take();
    const now = clock();
    const period = now - periodStart;
    periodStart = now;
    if (calls) emit((id, t) => usageEvent(id, t, period, calls));
  }
  const usageTimer = setInterval(emitUsage, options.usageIntervalMs ?? 3_600_000);
  Deno.unrefTimer(usageTimer);

  let stopped = false;
  return {
    recordCall(entry) {
      if (activeRecently()) counter.record(entry);
    },
    started(plugins) {
      if (!stopped) emit((id, now) => hubStartedEvent(id, now, { mode: options.mode, plugins }));
    },
    decision,
    async stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(usageTimer);
      emitUsage();
      const last = (async () => {
        await Promise.allSettled([...pending]);
        await sender?.flush();
      })();
      const timer = new AbortController();
      await Promise.race([last, abortableSleep(options.stopWaitMs ?? 300, timer.signal)]);
      timer.abort();
      sender?.stop(); // abandons a send still under way
      await last;
    },
  };
}

/** The refused endpoint as a warning, and on or off with the reason as a debug line. */
function announce(options: TelemetryOptions, first: TelemetryDecision): void {
  const { settings, logger } = options;
  if ("refused" in settings.endpoint && !settings.debug) logger.warn(settings.endpoint.refused);
  logger.debug(
    `telemetry: ${first.enabled ? "on" : "off"} (${first.text})` +
      (settings.debug ? "; debug mode prints events and sends nothing" : ""),
  );
}

/** `make()` once, the same promise afterwards; after a failure the next call tries again. */
function onceUntilItFails<T>(make: () => Promise<T>): () => Promise<T> {
  let promise: Promise<T> | undefined;
  return () =>
    promise ??= make().catch((error) => {
      promise = undefined;
      throw error;
    });
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
