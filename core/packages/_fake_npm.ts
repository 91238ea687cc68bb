/**
 * A fake `npm` for the unit tests of core/packages: a registry held in memory (package → version →
 * files), and the commands the package module runs (`view`, `install --global --prefix`,
 * `uninstall --global --prefix`, `search`, `config get registry`, `view <spec> <fields>`) acting on
 * real temp folders.
 * Every call is recorded; a test can make the registry unreachable, slow a command down, or answer
 * a command itself.
 */
// @ts-types="@types/semver"
import semver from "semver";
import { dirname, join } from "node:path";
import type { NpmResult } from "../process/npm_runner.ts";
import { SDK_VERSION } from "../../protocol/version.ts";
import { ADAPTER_CONTRACT, pluginNameFromPackage } from "../../protocol/plugin_manifest.ts";

export type Files = Record<string, string>;

/** The files of a valid built plugin package `name`@`version`, with `changes` applied. */
export function pluginFiles(
  name: string,
  version: string,
  changes: {
    hub?: unknown;
    sdkVersion?: string;
    adapter?: boolean;
    toolsVersion?: string;
    /** More package.json fields (dependencies...). */
    extra?: Record<string, unknown>;
  } = {},
): Files {
  const plugin = pluginNameFromPackage(name);
  const pkg: Record<string, unknown> = {
    name,
    version,
    description: `${name} for tests`,
    scripts: { postinstall: "touch script-ran" },
    ...changes.extra,
  };
  const hub = "hub" in changes ? changes.hub : { urlPatterns: ["https://example.com/*"] };
  if (hub !== undefined) pkg.hub = hub;
  const files: Files = {
    "package.json": JSON.stringify(pkg),
    "dist/tools.json": JSON.stringify({
      sdkVersion: changes.sdkVersion ?? SDK_VERSION,
      adapterContract: ADAPTER_CONTRACT,
      plugin,
      version: changes.toolsVersion ?? version,
      tools: [{
        name: "echo",
        displayName: "Echo",
        description: "Echoes",
        inputSchema: { type: "object", properties: {} },
      }],
    }),
  };
  if (changes.adapter !== false) files["dist/adapter.iife.js"] = "/* adapter */";
  return files;
}

export interface Call {
  args: string[];
  timeoutMs: number;
}

type Handler = (args: string[]) => Partial<NpmResult> | undefined;

const E404 = {
  code: 1,
  stdout: JSON.stringify({ error: { code: "E404", summary: "Not Found" } }),
  stderr: "npm error code E404\nnpm error 404 Not Found\n",
};
const REFUSED = {
  code: 1,
  stdout: JSON.stringify({ error: { code: "ECONNREFUSED" } }),
  stderr: "npm error code ECONNREFUSED\nnpm error connect ECONNREFUSED 127.0.0.1:1\n",
};

export class FakeNpm {
  readonly packages = new Map<string, Map<string, Files>>();
  readonly calls: Call[] = [];
  down = false;
  /** Milliseconds each `install` takes. */
  installDelayMs = 0;
  /** Installs running now, per package, and the most ever seen at once. */
  readonly running = new Map<string, number>();
  maxParallel = 0;
  /** The most installs of any packages seen running at once. */
  maxOverall = 0;
  private active = 0;
  /** Answers a command before the fake does (return undefined to let the fake answer). */
  handler: Handler | undefined;

  publish(name: string, version: string, files: Files = pluginFiles(name, version)): this {
    if (!this.packages.has(name)) this.packages.set(name, new Map());
    this.packages.get(name)!.set(version, files);
    return this;
  }

  /** The npm runner to hand to the module. */
  run = async (args: string[], timeoutMs: number): Promise<NpmResult> => {
    this.calls.push({ args, timeoutMs });
    const answer = this.handler?.(args) ?? await this.answer(args);
    return { code: 0, stdout: "", stderr: "", timedOut: false, ...answer };
  };

  /** The calls whose first argument is `command`. */
  called(command: string): string[][] {
    return this.calls.filter((c) => c.args[0] === command).map((c) => c.args);
  }

  private async answer(args: string[]): Promise<Partial<NpmResult>> {
    const [command] = args;
    if (command === "config") return { stdout: "http://registry.test/\n" };
    const flag = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.split("=")[1];
    const positional = args.filter((a, i) => i > 0 && !a.startsWith("-"));
    if (command === "uninstall") {
      await Deno.remove(join(flag("prefix")!, "lib", "node_modules", positional[0]), {
        recursive: true,
      }).catch(() => {});
      return {};
    }
    if (this.down && !(command === "install" && args.includes("--prefer-offline"))) return REFUSED;
    if (command === "search") return this.search(args.slice(args.indexOf("--") + 1));
    const [name, range] = splitSpec(positional[0]);
    const versions = this.packages.get(name);
    if (!versions) return E404;
    const version = semver.maxSatisfying([...versions.keys()], range ?? "*");
    if (!version) return { code: 1, stderr: "npm error code ETARGET\nnpm error notarget\n" };
    if (command === "view") return view(versions.get(version)!, version, positional.slice(1));
    if (command === "install") {
      return await this.install(flag("prefix")!, name, versions.get(version)!);
    }
    return { code: 1, stderr: `npm error unknown command ${command}` };
  }

  private async install(prefix: string, name: string, files: Files): Promise<Partial<NpmResult>> {
    const now = (this.running.get(name) ?? 0) + 1;
    this.running.set(name, now);
    this.maxParallel = Math.max(this.maxParallel, now);
    this.maxOverall = Math.max(this.maxOverall, ++this.active);
    try {
      if (this.installDelayMs) await new Promise((r) => setTimeout(r, this.installDelayMs));
      const dir = join(prefix, "lib", "node_modules", name);
      await Deno.remove(dir, { recursive: true }).catch(() => {});
      for (const [path, text] of Object.entries(files)) {
        await Deno.mkdir(dirname(join(dir, path)), { recursive: true });
        await Deno.writeTextFile(join(dir, path), text);
      }
      return {};
    } finally {
      this.active--;
      this.running.set(name, this.running.get(name)! - 1);
    }
  }

  private search(terms: string[]): Partial<NpmResult> {
    const hits = [...this.packages.entries()]
      .filter(([name]) => terms.every((t) => name.includes(t)))
      .map(([name, versions]) => ({
        name,
        version: semver.maxSatisfying([...versions.keys()], "*"),
        description: `${name} for tests`,
        publisher: { username: "tester" },
      }));
    return { stdout: JSON.stringify(hits) };
  }
}

function splitSpec(spec: string): [string, string | undefined] {
  const at = spec.indexOf("@", 1);
  return at < 0 ? [spec, undefined] : [spec.slice(0, at), spec.slice(at + 1)];
}

/** `npm view <spec> <fields> --json`: one field present is printed bare, several as an object. */
function view(files: Files, version: string, fields: string[]): Partial<NpmResult> {
  if (fields.length === 0 || (fields.length === 1 && fields[0] === "version")) {
    return { stdout: JSON.stringify(version) };
  }
  const pkg = JSON.parse(files["package.json"]);
  const present = Object.fromEntries(
    fields.filter((f) => pkg[f] !== undefined).map((f) => [f, pkg[f]]),
  );
  const keys = Object.keys(present);
  if (keys.length === 0) return { stdout: "" };
  return { stdout: JSON.stringify(keys.length === 1 ? present[keys[0]] : present) };
}
