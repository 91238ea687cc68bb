import { assertEquals, assertMatch } from "../../tests/helpers/assert.ts";
import { browserCheck, type BrowserProbe, findBrowsers } from "./browsers.ts";

/** A probe of a made-up machine: `files` exist; `links` map a path to the file it points at. */
function probe(
  os: typeof Deno.build.os,
  env: Record<string, string>,
  files: string[],
  links: Record<string, string> = {},
): BrowserProbe {
  return {
    os,
    env: (name) => env[name],
    realFile: (path) => {
      const real = links[path] ?? path;
      return Promise.resolve(files.includes(real) ? real : undefined);
    },
  };
}

Deno.test("linux: commands on PATH and fixed folders, each real file once", async () => {
  const found = await findBrowsers(probe(
    "linux",
    { PATH: "/home/u/bin:/usr/bin:/bin:relative/dir" },
    ["/usr/bin/google-chrome-stable", "/usr/bin/brave-browser", "/snap/bin/chromium"],
    {
      "/bin/brave-browser": "/usr/bin/brave-browser",
      "/usr/bin/google-chrome": "/usr/bin/google-chrome-stable",
    },
  ));
  assertEquals(found, [
    { name: "Google Chrome", path: "/usr/bin/google-chrome" },
    { name: "Brave", path: "/usr/bin/brave-browser" },
    { name: "Chromium", path: "/snap/bin/chromium" },
  ]);
  const check = browserCheck(found, "linux");
  assertEquals(check.status, "pass");
  assertMatch(check.message, /^Google Chrome, Brave, Chromium found/);
});

Deno.test("linux: Edge and Chrome in /opt without PATH", async () => {
  const found = await findBrowsers(
    probe("linux", {}, ["/opt/microsoft/msedge/msedge", "/opt/google/chrome/chrome"]),
  );
  assertEquals(found.map((f) => f.name), ["Google Chrome", "Microsoft Edge"]);
});

Deno.test("macOS: app bundles in /Applications and ~/Applications", async () => {
  const found = await findBrowsers(probe("darwin", { HOME: "/Users/u" }, [
    "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
    "/Users/u/Applications/Brave Browser.app/Contents/MacOS/Brave Browser",
    "/Applications/Chromium.app/Contents/Info.plist",
  ]));
  assertEquals(found, [
    { name: "Google Chrome", path: "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome" },
    {
      name: "Brave",
      path: "/Users/u/Applications/Brave Browser.app/Contents/MacOS/Brave Browser",
    },
  ]);
});

Deno.test("windows: Program Files, Program Files (x86) and the user's LOCALAPPDATA", async () => {
  const found = await findBrowsers(probe("windows", {
    ProgramFiles: "C:\\Program Files",
    LOCALAPPDATA: "C:\\Users\\u\\AppData\\Local",
  }, [
    "C:\\Program Files (x86)\\Microsoft\\Edge\\Application\\msedge.exe",
    "C:\\Users\\u\\AppData\\Local\\Google\\Chrome\\Application\\chrome.exe",
    "C:\\Program Files\\BraveSoftware\\Brave-Browser\\Application\\brave.exe",
    "C:\\Users\\u\\AppData\\Local\\Chromium\\Application\\chrome.exe",
  ]));
  assertEquals(found, [
    {
      name: "Brave",
      path: "C:\\Program Files\\BraveSoftware\\Brave-Browser\\Application\\brave.exe",
    },
    {
      name: "Microsoft Edge",
      path: "C:\\Program Files (x86)\\Microsoft\\Edge\\Application\\msedge.exe",
    },
    {
      name: "Google Chrome",
      path: "C:\\Users\\u\\AppData\\Local\\Google\\Chrome\\Application\\chrome.exe",
    },
    { name: "Chromium", path: "C:\\Users\\u\\AppData\\Local\\Chromium\\Application\\chrome.exe" },
  ]);
});

Deno.test("none found on any system: a warning with the system's install hint", async () => {
  for (const os of ["linux", "darwin", "windows"] as const) {
    const found = await findBrowsers(
      probe(os, { PATH: "/usr/bin", HOME: "/h" }, ["/usr/bin/firefox"]),
    );
    assertEquals(found, []);
    const check = browserCheck(found, os);
    assertEquals(check.status, "warn");
    assertMatch(check.message, /no Chromium-based browser/);
    assertMatch(check.fix!, /install/i);
  }
  assertMatch(browserCheck([], "linux").fix!, /apt install chromium/);
});

Deno.test("the list of found browsers is bounded", () => {
  const many = Array.from({ length: 30 }, (_, i) => ({ name: "Chromium", path: `/p/${i}` }));
  const lines = browserCheck(many, "linux").message.split("\n");
  assertEquals(lines.length, 10);
  assertEquals(lines.at(-1), "…and 22 more");
});
