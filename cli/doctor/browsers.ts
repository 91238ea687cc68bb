/**
 * Finds the Chromium-based browsers installed where they really live: on Linux the usual commands
 * on PATH and the fixed folders of packages and snaps, on macOS the app bundles in /Applications and
 * ~/Applications, on Windows the per-machine and per-user install folders. The system, the
 * environment and the file test are injected, so every system is testable anywhere.
 */
import { posix, win32 } from "node:path";
import { type Check, pass, problem } from "./report.ts";

export interface BrowserProbe {
  os: typeof Deno.build.os;
  env(name: string): string | undefined;
  /** The real path of the file at `path` (links followed); undefined when there is no file. */
  realFile(path: string): Promise<string | undefined>;
}

export interface FoundBrowser {
  name: string;
  path: string;
}

const LINUX_COMMANDS: [string, string][] = [
  ["google-chrome", "Google Chrome"],
  ["google-chrome-stable", "Google Chrome"],
  ["chromium", "Chromium"],
  ["chromium-browser", "Chromium"],
  ["microsoft-edge", "Microsoft Edge"],
  ["microsoft-edge-stable", "Microsoft Edge"],
  ["brave-browser", "Brave"],
];

const LINUX_PATHS: [string, string][] = [
  ["/usr/lib/chromium/chromium", "Chromium"],
  ["/usr/lib/chromium-browser/chromium-browser", "Chromium"],
  ["/snap/bin/chromium", "Chromium"],
  ["/opt/google/chrome/chrome", "Google Chrome"],
  ["/opt/microsoft/msedge/msedge", "Microsoft Edge"],
  ["/opt/brave.com/brave/brave", "Brave"],
];

const MAC_APPS: [string, string][] = [
  ["Google Chrome.app/Contents/MacOS/Google Chrome", "Google Chrome"],
  ["Chromium.app/Contents/MacOS/Chromium", "Chromium"],
  ["Microsoft Edge.app/Contents/MacOS/Microsoft Edge", "Microsoft Edge"],
  ["Brave Browser.app/Contents/MacOS/Brave Browser", "Brave"],
];

const WINDOWS_EXES: [string, string][] = [
  ["Google\\Chrome\\Application\\chrome.exe", "Google Chrome"],
  ["Microsoft\\Edge\\Application\\msedge.exe", "Microsoft Edge"],
  ["BraveSoftware\\Brave-Browser\\Application\\brave.exe", "Brave"],
  ["Chromium\\Application\\chrome.exe", "Chromium"],
];

/** Where to look on this system: [path, browser name], in order. */
export function browserCandidates(probe: BrowserProbe): [string, string][] {
  const home = probe.env("HOME") ?? probe.env("USERPROFILE");
  if (probe.os === "windows") {
    const programFiles = probe.env("ProgramFiles");
    // The 32-bit folder is "<ProgramFiles> (x86)" on every 64-bit Windows; reading its own
    // variable would need a permission whose name the task shell cannot take unquoted.
    const roots = [programFiles, programFiles && `${programFiles} (x86)`, probe.env("LOCALAPPDATA")]
      .filter((r): r is string => !!r);
    return roots.flatMap((root) =>
      WINDOWS_EXES.map(([rel, name]): [string, string] => [win32.join(root, rel), name])
    );
  }
  if (probe.os === "darwin") {
    const roots = ["/Applications", ...(home ? [posix.join(home, "Applications")] : [])];
    return roots.flatMap((root) =>
      MAC_APPS.map(([rel, name]): [string, string] => [posix.join(root, rel), name])
    );
  }
  const dirs = (probe.env("PATH") ?? "").split(":").filter((d) => d.startsWith("/"));
  const onPath = dirs.flatMap((dir) =>
    LINUX_COMMANDS.map(([cmd, name]): [string, string] => [posix.join(dir, cmd), name])
  );
  return [...onPath, ...LINUX_PATHS];
}

/** Every candidate that exists, once per real file (`/bin` may be a link to `/usr/bin`). */
export async function findBrowsers(probe: BrowserProbe): Promise<FoundBrowser[]> {
  const found: FoundBrowser[] = [];
  const seen = new Set<string>();
  for (const [path, name] of browserCandidates(probe)) {
    const real = await probe.realFile(path);
    if (real === undefined || seen.has(real)) continue;
    seen.add(real);
    found.push({ name, path });
  }
  return found;
}

const INSTALL_HINT: Record<string, string> = {
  linux: 'install Chromium ("sudo apt install chromium", or your system\'s package) or Google ' +
    "Chrome from https://www.google.com/chrome/",
  darwin: "install Google Chrome from https://www.google.com/chrome/ (or Chromium, Edge, Brave)",
  windows: "install Google Chrome from https://www.google.com/chrome/ (Edge also works)",
};

export function browserCheck(found: FoundBrowser[], os: typeof Deno.build.os): Check {
  const title = "browser";
  if (found.length === 0) {
    return problem(
      "warn",
      "browser",
      title,
      "no Chromium-based browser (Chrome, Chromium, Edge, Brave) found in the usual places",
      INSTALL_HINT[os] ?? INSTALL_HINT.linux,
    );
  }
  const names = [...new Set(found.map((f) => f.name))];
  const shown = found.slice(0, 8).map((f) => `${f.name}: ${f.path}`);
  if (found.length > shown.length) shown.push(`…and ${found.length - shown.length} more`);
  return pass("browser", title, `${names.join(", ")} found\n${shown.join("\n")}`);
}

async function realFile(path: string): Promise<string | undefined> {
  try {
    return (await Deno.stat(path)).isFile ? await Deno.realPath(path) : undefined;
  } catch {
    return undefined;
  }
}

/** An environment variable, or undefined when unset or not readable under this run's permissions. */
export function readEnv(name: string): string | undefined {
  try {
    return Deno.env.get(name);
  } catch {
    return undefined;
  }
}

export function systemProbe(): BrowserProbe {
  return { os: Deno.build.os, env: readEnv, realFile };
}
