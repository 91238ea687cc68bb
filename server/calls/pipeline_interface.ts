/**
 * What the transports need of the pipeline every tool call goes through: a call request in, its
 * outcome out. Declared apart from the implementation (./pipeline.ts: find, permission, arguments,
 * tab, run, audit), so mcp/ and the routes depend on this shape only.
 */
import type { HubError } from "../../protocol/errors.ts";
import type { ContentBlock } from "../browser_tools/browser_tool_interface.ts";
import type { CallProgress } from "../../protocol/call_contract.ts";
import type { PageContent } from "../../protocol/page_content.ts";

export type { PageContent };

export interface CallRequest {
  name: string;
  args: unknown;
  /** Called with each progress report of the running tool. */
  onProgress?: (progress: CallProgress) => void;
  /** Aborts the call (the client cancelled or went away). */
  signal?: AbortSignal;
  /**
   * Why the request carrying the arguments was unusable (REST body: not JSON, or over the size
   * limit), with the HTTP status to answer; the call is refused and audited.
   */
  badRequest?: { message: string; status: number };
}

export type CallOutcome =
  | {
    ok: true;
    value: unknown;
    content?: ContentBlock[];
    /** With `content`: the value goes out as `structuredContent` too. */
    structured?: boolean;
    /**
     * Set for what was read from a page (reading browser tools, plugin tools): the result is
     * marked as page content (results.ts `markPageContent`, decision 073).
     */
    pageContent?: PageContent;
  }
  | { ok: false; error: HubError };

export interface Pipeline {
  call(request: CallRequest): Promise<CallOutcome>;
}
