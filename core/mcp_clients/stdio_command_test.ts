import { resolve } from "node:path";
import { assertEquals } from "../../tests/helpers/assert.ts";
import { defaultProbe, installedHub, stdioCommand, type StdioProbe } from "./stdio_command.ts";

const FLAGS = ["--allow-read", "--quiet"];

function probe(over: Partial<StdioProbe> & { files?: Record<string, string> } = {}): StdioProbe {
  const files = over.files ?? {};
  const env: Record<string, string> = { PATH: "/usr/local/bin:/usr/bin" };
  return {
    os: "linux",
    standalone: false,
    execPath: "/opt/deno/bin/deno",
    mainPath: "/src/hub/main.ts",
    version: "1.2.3",
    hubConfigDir: undefined,
    env: (name) => env[name],
    realFile: (path) => {
      const link = files[`link:${path}`];
      if (link) return link;
      return path in files ? path : undefined;
    },
    readText: (path) => files[path],
    ...over,
  };
}

const hubPackage = (version: string) => JSON.stringify({ name: "@tabhub/hub", version });

Deno.test("a checkout: deno with the config, the flags and main.ts, absolute paths", () => {
  const command = stdioCommand({
    port: 7777,
    permissionFlags: FLAGS,
    probe: probe({ files: { "/src/hub/deno.json": "{}" } }),
  });
  assertEquals(command, {
    command: "/opt/deno/bin/deno",
    args: [
      "run",
      "--config=/src/hub/deno.json",
      ...FLAGS,
      "/src/hub/main.ts",
      "start",
      "--stdio",
      "--port",
      "7777",
    ],
  });
});

Deno.test("an installed hub of this version on PATH is used; another version is not", () => {
  const files = {
    "/usr/local/bin/hub": "",
    "link:/usr/local/bin/hub": "/usr/lib/node_modules/@tabhub/hub/bin/hub.cjs",
    "/usr/lib/node_modules/@tabhub/hub/package.json": hubPackage("1.2.3"),
  };
  const found = stdioCommand({ port: 1, permissionFlags: FLAGS, probe: probe({ files }) });
  assertEquals(found, { command: "/usr/local/bin/hub", args: ["start", "--stdio", "--port", "1"] });
  const old = { ...files, "/usr/lib/node_modules/@tabhub/hub/package.json": hubPackage("1.0.0") };
  assertEquals(installedHub(probe({ files: old })), undefined);
  const other = { ...files, "/usr/lib/node_modules/@tabhub/hub/package.json": "{broken" };
  assertEquals(installedHub(probe({ files: other })), undefined);
});

Deno.test("Windows: npm's hub.cmd shim next to the package", () => {
  const files = {
    "C:\\npm\\hub.cmd": "",
    "C:\\npm\\node_modules\\@tabhub\\hub\\bin\\hub.cjs": "",
    "C:\\npm\\node_modules\\@tabhub\\hub\\package.json": hubPackage("1.2.3"),
  };
  const env: Record<string, string> = { Path: "C:\\npm;relative" };
  const found = installedHub(probe({ os: "windows", files, env: (n) => env[n] }));
  assertEquals(found, "C:\\npm\\hub.cmd");
});

Deno.test("the compiled binary runs itself; HUB_CONFIG_DIR is passed on", () => {
  const command = stdioCommand({
    port: 2,
    permissionFlags: FLAGS,
    probe: probe({ standalone: true, execPath: "/opt/hub", hubConfigDir: "/cfg" }),
  });
  assertEquals(command, {
    command: "/opt/hub",
    args: ["start", "--stdio", "--port", "2"],
    env: { HUB_CONFIG_DIR: "/cfg" },
  });
});

Deno.test("this process: deno and this checkout's main.ts, both files that exist", () => {
  const command = stdioCommand({ port: 3, permissionFlags: FLAGS });
  const mainTs = command.args.find((a) => a.endsWith("main.ts"))!;
  assertEquals(Deno.statSync(mainTs).isFile, true);
  assertEquals(Deno.statSync(command.command).isFile, true);
  assertEquals(defaultProbe().mainPath, mainTs);
});

Deno.test("a relative or ~ HUB_CONFIG_DIR is passed on resolved (clients spawn elsewhere)", () => {
  const before = Deno.env.get("HUB_CONFIG_DIR");
  try {
    Deno.env.set("HUB_CONFIG_DIR", "rel/cfg");
    assertEquals(defaultProbe().hubConfigDir, resolve("rel/cfg"));
    Deno.env.set("HUB_CONFIG_DIR", " ");
    assertEquals(defaultProbe().hubConfigDir, undefined);
  } finally {
    if (before === undefined) Deno.env.delete("HUB_CONFIG_DIR");
    else Deno.env.set("HUB_CONFIG_DIR", before);
  }
});
