/**
 * The hub plugin SDK, published as `@tabhub/sdk`. A plugin's entry file imports from
 * "@tabhub/sdk" and default-exports `definePlugin({...})`; `hub-plugin build` bundles it into an
 * adapter that runs inside matching browser tabs, with the user's session. See docs/plugins.md.
 *
 * Runs in the page: DOM APIs only, no Deno APIs, no eval.
 */
export { z } from "./zod.ts";
export { definePlugin, defineTool } from "./plugin.ts";
export type {
  PluginDefinition,
  Progress,
  ReadyContext,
  ToolContext,
  ToolDefinition,
} from "./plugin.ts";
export { ToolError } from "./tool_error.ts";
export type { ToolErrorOptions } from "./tool_error.ts";
export { log } from "./log.ts";
export type { Log } from "./log.ts";
export { categoryForStatus, FETCH_TIMEOUT_MS, fetchJson, fetchText, pageFetch } from "./fetch.ts";
export type { PageFetchInit } from "./fetch.ts";
export { waitFor, waitForSelector } from "./dom.ts";
export type { WaitOptions } from "./dom.ts";
export { getSettings } from "./_state.ts";
export { notifyReadinessChanged } from "./readiness.ts";
export type { ErrorCategory } from "../protocol/errors.ts";
export type { ConfigField, ConfigSchema } from "../protocol/plugin_manifest.ts";
export { SDK_VERSION } from "../protocol/version.ts";
