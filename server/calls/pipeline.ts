/**
 * The one tool-call pipeline every transport uses (`/mcp`, `/mcp/gateway`, REST, and through them
 * the CLI and the stdio bridge): find the tool, refuse it when it is disabled or off, check its
 * arguments, ask the person when it is `ask`, respect the per-plugin limit, check the tab,
 * dispatch (asking about sites when the extension answers SITE_ASK: ./site_asks.ts), mark what was
 * read from a page as page content, and audit the outcome with the site it touched. Cheap
 * refusals come before the arguments are looked at.
 * Errors come out as `HubError`s with the codes listed in docs/http.md.
 */
import type { AuditEntry } from "../../protocol/audit.ts";
import { type ErrorPayload, type HubError, hubError } from "../../protocol/errors.ts";
import { isPlainObject } from "../../protocol/plain_object.ts";
import { type ExtensionRequests, notConnectedError } from "./extension_requests.ts";
import type { TabStates } from "../plugins/tab_states_interface.ts";
import type { AuditLog } from "../audit/audit_log_interface.ts";
import type { ManagementContext } from "../management/hub_tool.ts";
import type {
  BrowserTool,
  ContentContext,
  LocalFiles,
} from "../browser_tools/browser_tool_interface.ts";
import type { Catalog, CatalogTool, CheckedArgs } from "./catalog_interface.ts";
import { badRequestError, toHubError } from "./call_error.ts";
import type { Confirmations } from "./confirmations_interface.ts";
import type { Dispatches, DispatchOptions } from "./dispatches_interface.ts";
import type { InFlight } from "./in_flight.ts";
import { checkTabs } from "./tab_target.ts";
import { capOutput } from "./output_cap.ts";
import { needsReview } from "../permissions/review.ts";
import type { HubConfig, Permission } from "../../core/config/schema.ts";
import { loadValidators } from "../plugins/validators.ts";
import type { CallOutcome, CallRequest, PageContent, Pipeline } from "./pipeline_interface.ts";
import { pageContentOf, UNKNOWN_PAGE } from "./results.ts";
import { webOriginOf, withSiteAsks } from "./site_asks.ts";

export interface PipelineDeps {
  catalog: Catalog;
  link: ExtensionRequests;
  tabs: TabStates;
  dispatches: Dispatches;
  confirmations: Confirmations;
  inFlight: InFlight;
  audit: AuditLog;
  management: ManagementContext;
  /** Persists "always allow" for one tool as a per-tool `auto`. */
  allowAlways(tool: CatalogTool): Promise<void>;
  /** "Always allow this site": writes `sitePermissions[site] = "auto"`. */
  allowSite(site: string): Promise<void>;
  /** Saves a file a browser tool made for the person (`<config dir>/screenshots/`). */
  saveFile?: ContentContext["saveFile"];
  /** Local files for browser tools that read or write them (uploads, PDFs). */
  files?: LocalFiles;
  clock?: () => number;
}

export function createPipeline(pipelineDeps: PipelineDeps): Pipeline {
  const deps: Deps = { ...pipelineDeps, clock: pipelineDeps.clock ?? Date.now };
  return {
    async call(request) {
      const tool = deps.catalog.find(request.name);
      if (!tool) {
        return {
          ok: false,
          error: hubError(
            "TOOL_NOT_FOUND",
            `No tool "${request.name}". List the tools with tools/list, hub_list_tools or ` +
              '"hub tool list".',
          ),
        };
      }
      const call: Call = { id: crypto.randomUUID(), started: deps.clock() };
      try {
        const outcome = await execute(deps, tool, request, call);
        finish(deps, tool, call);
        return outcome;
      } catch (thrown) {
        const error = toHubError(thrown);
        call.site ??= refusedSite(error);
        finish(deps, tool, call, error.payload);
        return { ok: false, error };
      }
    },
  };
}

/** The pipeline's deps with the clock settled. */
type Deps = PipelineDeps & { clock: () => number };
/**
 * One call of a found tool. `id` is its invocation id: the confirmation's id for an `ask` tool
 * and the `dispatchId` of its `tool.dispatch`, so the extension sees one call under one id.
 */
interface Call {
  id: string;
  started: number;
  /** The extension answered the dispatch with this outcome (it knows how the call ended). */
  replied?: boolean;
  /** The site the call touched, for the audit: the page's origin, or the site refused. */
  site?: string;
}
type Checked = Extract<CheckedArgs, { ok: true }>;
type ToolOf<K extends CatalogTool["kind"]> = Extract<CatalogTool, { kind: K }>;

/** One call of a found tool, from the first refusal to its value; failures throw. */
async function execute(
  deps: Deps,
  tool: CatalogTool,
  request: CallRequest,
  call: Call,
): Promise<CallOutcome> {
  // Cheap checks first: a refused tool costs no parsing, however large its arguments.
  const permission = refuseEarly(deps, tool);
  if (request.badRequest !== undefined) throw badRequestError(request.badRequest);
  const args = request.args ?? {};
  if (!isPlainObject(args)) {
    throw hubError("INVALID_ARGUMENTS", `Arguments of ${tool.name} must be a JSON object.`);
  }
  const validators = loadValidators(); // imports ajv on the first call only
  if (validators) await validators;
  const checked = deps.catalog.check(tool, args);
  if (!checked.ok) {
    throw hubError(
      "INVALID_ARGUMENTS",
      `Invalid arguments for ${tool.name}: ${checked.errors.join("; ")}.`,
      { errors: checked.errors },
    );
  }
  if (permission === "ask") await confirm(deps, tool, call.id, args, request.signal);
  const release = deps.inFlight.acquire(tool.group);
  if (!release) {
    throw hubError(
      "CONCURRENCY_LIMIT",
      `Too many calls to ${tool.group} are running (the limit is 25 at once). Wait for some ` +
        "of them to finish, then try again.",
    );
  }
  try {
    if (tool.kind === "hub") {
      // The extension sees no dispatch for a tool the hub runs: it hears of the start here.
      deps.link.notify("tool.invocationStart", {
        invocationId: call.id,
        tool: tool.name,
        plugin: tool.group,
        startedAt: call.started,
      });
      return { ok: true, value: await tool.hub.run(checked.input, deps.management) };
    }
    const options: DispatchOptions = {
      onProgress: request.onProgress,
      signal: request.signal,
      onReply: (ok) => call.replied = ok,
    };
    if (tool.kind === "browser") {
      return await runBrowserTool(deps, tool, checked, { call, args, options, request });
    }
    return await runPluginTool(deps, tool, checked, call, options);
  } finally {
    release();
  }
}

/** The cheap refusals, before any work on the arguments: disabled, off. */
function refuseEarly(deps: Deps, tool: CatalogTool): Permission {
  if (deps.catalog.isDisabled(tool)) {
    throw hubError(
      "TOOL_DISABLED",
      `${tool.name} is disabled in the hub config (disabledBrowserTools). Remove it from that ` +
        "list to use it.",
    );
  }
  const permission = deps.catalog.permission(tool);
  if (permission === "off") throw offError(tool, deps.management.config());
  return permission;
}

/** Asks the person about a call whose arguments are valid (never about invalid ones). */
async function confirm(
  deps: Deps,
  tool: CatalogTool,
  id: string,
  args: Record<string, unknown>,
  signal?: AbortSignal,
) {
  const decision = await deps.confirmations.ask(
    { id, tool: tool.name, plugin: tool.group, parameters: args },
    signal,
  );
  if (!decision.allow) {
    throw hubError("PERMISSION_DENIED", `The user denied this call of ${tool.name}.`);
  }
  if (decision.alwaysAllow) await deps.allowAlways(tool);
}

/** A browser tool's call as runBrowserTool needs it. */
interface BrowserCall {
  call: Call;
  /** The agent's arguments, as a site confirmation shows them. */
  args: Record<string, unknown>;
  options: DispatchOptions;
  request: CallRequest;
}

async function runBrowserTool(
  deps: Deps,
  tool: ToolOf<"browser">,
  checked: Checked,
  { call, args, options, request }: BrowserCall,
): Promise<CallOutcome> {
  const files = deps.files ?? NO_LOCAL_FILES;
  const input = tool.browser.prepare
    ? await tool.browser.prepare(checked.input, { files, now: deps.clock })
    : checked.input;
  const siteDeps = { ...deps, skipPermissions: () => deps.catalog.skipPermissions() };
  const asking = {
    id: call.id,
    tool: tool.name,
    plugin: tool.group,
    parameters: args,
    signal: request.signal,
    onSite(site: string) {
      call.site = site;
      // The extension's SITE_ASK answer ended a dispatch, not the call: if the call now ends
      // without another answer (denied, timed out), the extension is told.
      call.replied = undefined;
    },
  };
  const { value, origin } = await withSiteAsks(
    siteDeps,
    asking,
    (grants) =>
      deps.dispatches.dispatch({
        dispatchId: call.id,
        tool: tool.name,
        kind: "browser",
        plugin: tool.group,
        method: tool.browser.method,
        input,
        ...(typeof input.tabId === "number" ? { tabId: input.tabId } : {}),
        ...(grants.length > 0 ? { siteGrants: [...grants] } : {}),
      }, options),
  );
  const page = pageContentOf(origin, isPlainObject(value) ? value.url : undefined);
  if (page.origin !== UNKNOWN_PAGE) call.site = page.origin;
  return await browserOutcome(tool.browser, value, {
    input,
    now: deps.clock,
    saveFile: deps.saveFile ?? noSaveFile,
    files,
  }, tool.browser.pageContent ? page : undefined);
}

async function runPluginTool(
  deps: Deps,
  tool: ToolOf<"plugin">,
  checked: Checked,
  call: Call,
  options: DispatchOptions,
): Promise<CallOutcome> {
  if (!deps.link.isConnected()) throw notConnectedError();
  const instance = checkTabs(tool.plugin, deps.tabs.of(tool.plugin.name), checked);
  const { value, tabId, origin } = await deps.dispatches.dispatch({
    dispatchId: call.id,
    tool: tool.name,
    kind: "plugin",
    plugin: tool.group,
    baseTool: tool.tool.baseName,
    input: checked.input,
    settings: tool.plugin.settings,
    ...(checked.tabId !== undefined ? { tabId: checked.tabId } : {}),
    ...(instance ? { instance } : {}),
  }, options);
  // A plugin's result is what its page gave: always page content. Without the extension's origin
  // (an older extension), the origin of the tab it ran in, as the extension last reported it.
  const reported = deps.tabs.of(tool.plugin.name).tabs.find((t) => t.tabId === tabId)?.url;
  const pageContent = pageContentOf(origin, reported);
  if (pageContent.origin !== UNKNOWN_PAGE) call.site = pageContent.origin;
  return { ok: true, value, pageContent };
}

/**
 * Audits the call and tells the extension it ended, unless the extension's own answer to the
 * dispatch already said so (the usual case: a call the extension ran ends with its reply).
 */
function finish(deps: Deps, tool: CatalogTool, call: Call, error?: ErrorPayload) {
  const durationMs = Math.max(0, Math.round(deps.clock() - call.started));
  const success = error === undefined;
  const entry: AuditEntry = {
    timestamp: new Date(call.started).toISOString(),
    tool: tool.name,
    plugin: tool.group,
    success,
    durationMs,
  };
  if (call.site !== undefined) entry.site = call.site;
  if (error) entry.error = { code: error.code, message: error.message, category: error.category };
  deps.audit.record(entry);
  if (call.replied === success) return;
  deps.link.notify("tool.invocationEnd", {
    invocationId: call.id,
    tool: tool.name,
    plugin: tool.group,
    success,
    durationMs,
    ...(error ? { error } : {}),
  });
}

/** A browser tool's value as content (its own `toContent`, or JSON), capped in size. */
async function browserOutcome(
  tool: BrowserTool,
  value: unknown,
  context: ContentContext,
  pageContent?: PageContent,
): Promise<CallOutcome> {
  const content = await tool.toContent?.(value, context);
  return {
    ok: true,
    ...capOutput(value, content),
    ...(tool.structured ? { structured: true } : {}),
    ...(pageContent ? { pageContent } : {}),
  };
}

/**
 * The site a refusal names (SITE_NOT_ALLOWED's, a denied site's), for the audit: its `details.origin`,
 * so the field has the form it has on success; `details.site` (the key) from an extension that
 * sends no origin.
 */
function refusedSite(error: HubError): string | undefined {
  const details = error.payload.details;
  if (error.code !== "SITE_NOT_ALLOWED" && error.code !== "PERMISSION_DENIED") return undefined;
  const site = isPlainObject(details) && typeof details.site === "string"
    ? details.site
    : undefined;
  return webOriginOf(details) ?? site;
}

function noSaveFile(): Promise<string> {
  return Promise.reject(new Error("this hub has no folder to save files in"));
}

/** A hub built without local files (tests): every use fails. */
const NO_LOCAL_FILES: LocalFiles = {
  readable: () => Promise.reject(noLocalFiles()),
  temporary: () => Promise.reject(noLocalFiles()),
  discard: () => Promise.resolve(),
  writable: () => Promise.reject(noLocalFiles()),
  write: () => Promise.reject(noLocalFiles()),
};

function noLocalFiles(): HubError {
  return hubError("FILE_NOT_ALLOWED", "This hub reads and writes no local files.");
}

/** PERMISSION_OFF, saying why: a version awaiting review, or a permission set to off. */
function offError(tool: CatalogTool, config: HubConfig): HubError {
  const reason = tool.kind === "plugin" ? needsReview(config, tool.plugin) : undefined;
  if (tool.kind === "plugin" && reason !== undefined) {
    const what = reason === "source"
      ? "is served by another package or folder than the one reviewed"
      : `changed to version ${tool.plugin.version} since it was reviewed`;
    return hubError(
      "PERMISSION_OFF",
      `${tool.plugin.displayName} ${what}, so its tools are off. Inspect it (plugin_inspect), ` +
        "mark it reviewed (plugin_mark_reviewed), then a person turns its tools on again.",
    );
  }
  return hubError(
    "PERMISSION_OFF",
    `${tool.name} is off. A person can allow it in the hub side panel, or run ` +
      `"hub config set tool-permission.${tool.group}.${tool.permissionKey} ask" (or auto).`,
  );
}
