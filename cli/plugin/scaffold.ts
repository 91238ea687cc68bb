/**
 * The files of a new plugin project (`hub plugin create`). Pure: returns paths and contents; the
 * command writes them. The scaffold builds as is, has one working example tool, and names no path
 * of this machine: it depends on a version range of `@tabhub/sdk` and runs `hub-plugin` from PATH.
 */
import { sdkRange } from "../../protocol/version.ts";
import { BEGIN, END } from "../../core/cli/readme_markers.ts";

export interface ScaffoldInput {
  name: string;
  domain: string;
  displayName: string;
  description: string;
}

/** The SDK package a plugin is written against, and the range a new plugin declares. */
export const SDK_PACKAGE = "@tabhub/sdk";
export const SCAFFOLD_SDK_RANGE = sdkRange();
const ZOD_SPECIFIER = "npm:zod@^4.1.0";

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

export { titleCase } from "../../protocol/plugin_manifest.ts";

function packageJson(input: ScaffoldInput): string {
  const pkg = {
    name: `hub-plugin-${input.name}`,
    version: "0.1.0",
    description: input.description,
    type: "module",
    keywords: ["hub-plugin"],
    files: ["dist", "README.md", "package.json"],
    // Provided by the hub that builds the plugin (hub-plugin bundles its own copy into the
    // adapter); optional, so installing the plugin never installs the SDK.
    peerDependencies: { [SDK_PACKAGE]: SCAFFOLD_SDK_RANGE },
    peerDependenciesMeta: { [SDK_PACKAGE]: { optional: true } },
    hub: {
      displayName: input.displayName,
      description: input.description,
      urlPatterns: urlPatternsFor(input.domain),
    },
  };
  return JSON.stringify(pkg, null, 2) + "\n";
}

function denoJson(): string {
  const config = {
    // Deno fetches the SDK's types from npm into node_modules/ for the editor and `deno check`.
    nodeModulesDir: "auto",
    // Deno waits 24 hours before it takes a newly published npm version; the SDK is exempt, so a
    // plugin builds on the day of an SDK release (zod keeps the wait).
    minimumDependencyAge: { age: "P1D", exclude: [`npm:${SDK_PACKAGE}`] },
    imports: { [SDK_PACKAGE]: `npm:${SDK_PACKAGE}@${SCAFFOLD_SDK_RANGE}`, "zod": ZOD_SPECIFIER },
    compilerOptions: { lib: ["dom", "dom.iterable", "esnext"] },
    tasks: {
      build: "hub-plugin build",
      watch: "hub-plugin build --watch",
      inspect: "hub-plugin inspect",
      readme: "hub-plugin readme",
      check: "deno check src/",
    },
  };
  return JSON.stringify(config, null, 2) + "\n";
}

function sourceFile(input: ScaffoldInput): string {
  return `import { definePlugin, defineTool, log, ToolError, z } from "${SDK_PACKAGE}";

/**
 * ${input.displayName}: tools that run inside ${input.domain} tabs, with the user's session.
 * Docs: the hub README, section "Plugins", and docs/plugins.md in hub's repository.
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

This is a hub plugin. Its tools are in \`src/index.ts\`, written with the plugin SDK
\`${SDK_PACKAGE}\`; the SDK, the \`hub\` field of package.json and publishing are described in the
hub README (section "Plugins") and in \`docs/plugins.md\` of hub's repository.

- \`deno task build\` (= \`hub-plugin build\`): builds \`dist/\` and reloads a running hub.
- \`deno task watch\`: rebuilds on every change.
- \`deno task inspect\`: shows the built tools.
- \`deno task readme\`: writes the tool reference above.
- \`deno task check\`: type-checks the source against \`${SDK_PACKAGE}\` (Deno fetches it from npm).

The tasks run \`hub-plugin\`, which comes with hub (\`npm i -g @tabhub/hub\`). The build bundles the
SDK of the hub that builds it into \`dist/adapter.iife.js\`; the \`${SDK_PACKAGE}\` range in deno.json
and package.json (\`${SCAFFOLD_SDK_RANGE}\`) says which SDK the plugin is written for, and a
\`hub-plugin\` whose SDK is of another major refuses to build it.

Working on a hub checkout instead of an installed hub? Run the commands from the checkout with
\`deno task hub-plugin build --dir <this folder>\` (likewise \`inspect\` and \`readme\`), and to
type-check against the checkout's SDK, map \`"${SDK_PACKAGE}"\` in deno.json to the checkout's
\`sdk/mod.ts\`.

## Publish

\`deno task build\` and \`deno task readme\`, then \`npm publish\`. Keep the package name
\`hub-plugin-${input.name}\` (or \`@<scope>/hub-plugin-${input.name}\`): hub finds globally
installed packages by that name (\`npm i -g hub-plugin-${input.name}\`).

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
