/**
 * The files of a new plugin project (`hub plugin create`). Pure: returns paths and contents; the
 * command writes them. The scaffold builds as is and has one working example tool.
 */
import { fileURLToPath } from "node:url";
import { PLUGIN_CLI_PERMISSION_FLAGS } from "./permissions.ts";
import { BEGIN, END } from "../core/readme_markers.ts";

export interface ScaffoldInput {
  name: string;
  domain: string;
  displayName: string;
  description: string;
}

/** Where this hub's code lives; the plugin's deno.json points at its SDK and hub-plugin. */
export const HUB_ROOT = fileURLToPath(new URL("../", import.meta.url)).replace(/\/$/, "");

function isIpOrLocal(host: string): boolean {
  return host === "localhost" || /^\d+\.\d+\.\d+\.\d+$/.test(host) || host.startsWith("[");
}

/** Match patterns for a domain: the domain and its subdomains (just the host for IPs/localhost). */
export function urlPatternsFor(domain: string): string[] {
  return isIpOrLocal(domain) ? [`*://${domain}/*`] : [`*://${domain}/*`, `*://*.${domain}/*`];
}

/**
 * The host a user meant: accepts `example.com`, `*.example.com`, `https://app.example.com/x` or
 * `localhost:3000` (match patterns without a port match every port). Throws when it is not a host.
 */
export function parseDomain(input: string): string {
  let text = input.trim().toLowerCase().replace(/^\*\./, "");
  if (text.includes("://")) {
    try {
      text = new URL(text).hostname;
    } catch {
      throw new Error(`"${input}" is not a URL or domain`);
    }
  }
  text = text.replace(/\/.*$/, "").replace(/:\d+$/, "");
  if (!/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/.test(text)) {
    throw new Error(`"${input}" is not a domain (for example "app.example.com")`);
  }
  return text;
}

export { titleCase } from "../protocol/plugin_manifest.ts";

function packageJson(input: ScaffoldInput): string {
  const pkg = {
    name: `hub-plugin-${input.name}`,
    version: "0.1.0",
    description: input.description,
    type: "module",
    keywords: ["hub-plugin"],
    files: ["dist", "README.md", "package.json"],
    hub: {
      displayName: input.displayName,
      description: input.description,
      urlPatterns: urlPatternsFor(input.domain),
    },
  };
  return JSON.stringify(pkg, null, 2) + "\n";
}

function denoJson(): string {
  const run = `deno run ${PLUGIN_CLI_PERMISSION_FLAGS.join(" ")} ${HUB_ROOT}/plugin_cli/main.ts`;
  const config = {
    imports: { "@hub/sdk": `${HUB_ROOT}/sdk/mod.ts`, "zod": "npm:zod@^4.1.0" },
    compilerOptions: { lib: ["dom", "dom.iterable", "esnext"] },
    tasks: {
      build: `${run} build`,
      watch: `${run} build --watch`,
      inspect: `${run} inspect`,
      readme: `${run} readme`,
      check: "deno check src/",
    },
  };
  return JSON.stringify(config, null, 2) + "\n";
}

function sourceFile(input: ScaffoldInput): string {
  return `import { definePlugin, defineTool, log, ToolError, z } from "@hub/sdk";

/**
 * ${input.displayName}: tools that run inside ${input.domain} tabs, with the user's session.
 * Docs: ${HUB_ROOT}/docs/plugins.md
 */
export default definePlugin({
  // Tools run only while this returns true (typically: the user is logged in).
  isReady: () => document.readyState !== "loading",

  tools: [
    defineTool({
      name: "get_page_info",
      description: "Returns the title and URL of the ${input.displayName} page, and optionally " +
        "its headings. Use it to see where the browser is before acting.",
      input: z.object({
        includeHeadings: z.boolean().default(false).describe("Also return the h1-h3 headings"),
      }),
      output: z.object({
        title: z.string(),
        url: z.string(),
        headings: z.array(z.string()).optional(),
      }),
      handle: ({ includeHeadings }) => {
        if (!document.body) throw ToolError.unavailable("The page has not loaded yet");
        log.info("Reading page info", { includeHeadings });
        const headings = includeHeadings
          ? [...document.querySelectorAll("h1, h2, h3")].map((h) => h.textContent?.trim() ?? "")
          : undefined;
        return { title: document.title, url: location.href, headings };
      },
    }),
  ],
});
`;
}

function readme(input: ScaffoldInput): string {
  // The marker block is filled in by `deno task readme` after a build; the rest is the author's.
  return `${BEGIN}
# ${input.displayName}

${input.description}

(Run \`deno task readme\` after building to list the tools here.)
${END}

## Develop

This is a hub plugin. Its tools are in \`src/index.ts\`; the plugin SDK is documented in
\`docs/plugins.md\` of hub (${HUB_ROOT}).

- \`deno task build\` (or \`hub-plugin build\`): builds \`dist/\` and reloads a running hub.
- \`deno task watch\`: rebuilds on every change.
- \`deno task inspect\`: shows the built tools.
- \`deno task readme\`: writes the tool reference above.
- \`deno task check\`: type-checks the source.

Every tool is off until you allow it: \`hub config set plugin-permission.${input.name} ask\`.
`;
}

/** The files of the project, relative to its folder. */
export function scaffoldFiles(input: ScaffoldInput): Record<string, string> {
  return {
    "package.json": packageJson(input),
    "deno.json": denoJson(),
    "src/index.ts": sourceFile(input),
    "README.md": readme(input),
    ".gitignore": "node_modules/\n",
  };
}
