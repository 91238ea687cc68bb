/**
 * The fake parts around `createPipeline` for the server's unit tests: a person who answers each
 * question as scripted, a recording audit log, and "always allow" (a tool, a site) that only
 * records. A suite gives the parts it tests (catalog, link, tabs, dispatches) and overrides any
 * other; what the fakes saw comes back beside the deps.
 */
import type { AuditEntry } from "../../protocol/audit.ts";
import type { AuditLog } from "../audit/audit_log_interface.ts";
import type { CatalogTool } from "./catalog_interface.ts";
import type { ConfirmationRequest, Decision } from "./confirmations_interface.ts";
import { createInFlight } from "./in_flight.ts";
import type { PipelineDeps } from "./pipeline.ts";

type Given = Pick<PipelineDeps, "catalog" | "link" | "tabs" | "dispatches"> & Partial<PipelineDeps>;

export interface FakeAnswers {
  /** The person's answers, in order; the last one repeats (default: allow once). */
  decisions?: Decision[];
  /** Runs as each question is asked, before it is answered. */
  onAsk?(request: ConfirmationRequest): void;
}

/** Pipeline deps over fakes, and the records of what the pipeline did to them. */
export function fakePipelineDeps(given: Given, answers: FakeAnswers = {}) {
  const asked: ConfirmationRequest[] = [];
  const audited: AuditEntry[] = [];
  const allowed: CatalogTool[] = [];
  const allowedSites: string[] = [];
  const decisions = answers.decisions ?? [{ allow: true, alwaysAllow: false }];
  const deps: PipelineDeps = {
    confirmations: {
      ask(request) {
        answers.onAsk?.(request);
        asked.push(request);
        return Promise.resolve(decisions[Math.min(asked.length, decisions.length) - 1]);
      },
      respond() {},
      failAll() {},
      pending: () => 0,
    },
    inFlight: createInFlight(),
    audit: { record: (entry: AuditEntry) => audited.push(entry) } as unknown as AuditLog,
    management: {} as never,
    allowAlways: (tool) => (allowed.push(tool), Promise.resolve()),
    allowSite: (site) => (allowedSites.push(site), Promise.resolve()),
    ...given,
  };
  return { deps, asked, audited, allowed, allowedSites };
}
