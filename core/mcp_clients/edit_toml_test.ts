import { parse } from "smol-toml";
import { assert, assertEquals } from "../../tests/helpers/assert.ts";
import { editTomlEntry, readTomlEntry } from "./edit_toml.ts";
import { plainValue, sameValue, SetupError } from "./setup_error.ts";
import { tomlLines } from "./toml_lines.ts";

const HTTP = {
  url: "http://127.0.0.1:7000/mcp",
  http_headers: { Authorization: "Bearer old-secret" },
};
const ROTATED = { ...HTTP, http_headers: { Authorization: "Bearer new-secret" } };
const STDIO = { command: "/usr/bin/deno", args: ["run", "/x/main.ts", "start", "--stdio"] };

/** A realistic Codex config: settings, other servers with sub-tables, profiles, comments. */
const CONFIG = `# Codex CLI configuration
model = "gpt-5-codex"
notes = """
[not.a.table]
text"""

[tools]
web_search = true

# MCP servers
[mcp_servers.context7]
command = "npx"
args = [
  "-y",
  "[weird]",
]

[mcp_servers.context7.env]
CONTEXT7_API_KEY = "ctx7_example" # keep me

[mcp_servers.figma]
url = "https://mcp.figma.com/mcp"
startup_timeout_sec = 20

# profiles
[profiles.fast]
model = "gpt-5-codex-mini"

[projects."/home/user/work/app"]
trust_level = "trusted"
`;

function refused(run: () => unknown, what = ""): SetupError {
  try {
    run();
  } catch (error) {
    assert(error instanceof SetupError, `${what}: ${error}`);
    return error;
  }
  throw new Error(`not refused: ${what}`);
}

/** Whether `after` is `before` with one stretch of text put in. */
function onlyInserted(before: string, after: string): boolean {
  let i = 0;
  while (i < before.length && before[i] === after[i]) i++;
  return after.endsWith(before.slice(i)) && after.length > before.length;
}

/** The parsed file without hub's entry. */
function withoutHub(text: string) {
  const doc = parse(text) as Record<string, Record<string, unknown>>;
  delete doc.mcp_servers?.hub;
  if (doc.mcp_servers && Object.keys(doc.mcp_servers).length === 0) delete doc.mcp_servers;
  return doc;
}

Deno.test("tomlLines finds headers, not brackets inside strings and multi-line arrays", () => {
  const headers = tomlLines(CONFIG).filter((l) => l.kind === "header").map((l) => l.path);
  assertEquals(headers, [
    ["tools"],
    ["mcp_servers", "context7"],
    ["mcp_servers", "context7", "env"],
    ["mcp_servers", "figma"],
    ["profiles", "fast"],
    ["projects", "/home/user/work/app"],
  ]);
  const odd = tomlLines(`[ a . "b.c" . 'd' ] # x\n[[e]]\n[f] x = 1\n`);
  assertEquals(odd.map((l) => [l.kind, l.path, l.array]), [
    ["header", ["a", "b.c", "d"], false],
    ["header", ["e"], true],
    ["content", undefined, undefined],
  ]);
});

Deno.test("editTomlEntry: add, update after a rotation, up to date, remove, byte for byte", () => {
  const added = editTomlEntry(CONFIG, "hub", HTTP);
  assertEquals(added.kind, "added");
  assert(onlyInserted(CONFIG, added.after), "adding only inserts text");
  assert(added.after.indexOf("[mcp_servers.hub]") < added.after.indexOf("[profiles.fast]"));
  assertEquals(readTomlEntry(added.after, "hub"), HTTP);
  assertEquals(withoutHub(added.after), withoutHub(CONFIG));

  const updated = editTomlEntry(added.after, "hub", ROTATED);
  assertEquals(updated.kind, "updated");
  assertEquals(updated.after.replace("new-secret", "old-secret"), added.after);

  const same = editTomlEntry(updated.after, "hub", ROTATED);
  assertEquals(same.kind, "up-to-date");
  assertEquals(same.after, updated.after);

  const removed = editTomlEntry(updated.after, "hub", null);
  assertEquals(removed.kind, "removed");
  assertEquals(removed.after, CONFIG, "removing gives back the file as it was");
  assertEquals(editTomlEntry(CONFIG, "hub", null), {
    kind: "absent",
    before: CONFIG,
    after: CONFIG,
  });
});

Deno.test("editTomlEntry switches transports, keeping the user's own keys", () => {
  const text =
    `[mcp_servers.hub]\nurl = "http://127.0.0.1:1/mcp"\nstartup_timeout_sec = 30\n\n[mcp_servers.hub.http_headers]\nAuthorization = "Bearer x"\n\n[other]\na = 1\n`;
  const out = editTomlEntry(text, "hub", STDIO);
  assertEquals(out.kind, "updated");
  assertEquals(readTomlEntry(out.after, "hub"), { ...STDIO, startup_timeout_sec: 30 });
  assert(out.after.endsWith(`\n\n[other]\na = 1\n`), out.after);
  assertEquals(editTomlEntry(out.after, "hub", STDIO).kind, "up-to-date");
});

Deno.test("editTomlEntry writes into an empty or missing file, and appends to one without servers", () => {
  const fresh = editTomlEntry("", "hub", HTTP);
  assertEquals(fresh.kind, "added");
  assertEquals(plainValue(parse(fresh.after)), { mcp_servers: { hub: HTTP } });
  assertEquals(editTomlEntry(fresh.after, "hub", null).after, "");
  const text = `model = "o3" # mine\n\n[tools]\nweb_search = true\n`;
  const out = editTomlEntry(text, "hub", HTTP);
  assert(out.after.startsWith(text), "appended at the end");
  assertEquals(editTomlEntry(out.after, "hub", null).after, text);
});

Deno.test("editTomlEntry keeps CRLF line ends and a BOM", () => {
  const text = `\uFEFFmodel = "o3"\r\n\r\n[mcp_servers.a]\r\ncommand = "x"\r\n`;
  const out = editTomlEntry(text, "hub", HTTP);
  assert(out.after.startsWith("\uFEFFmodel"));
  assert(!/[^\r]\n/.test(out.after), "no bare LF");
  assertEquals(editTomlEntry(out.after, "hub", null).after, text);
});

Deno.test("editTomlEntry gathers hub's tables spread over the file into one", () => {
  const text =
    `[mcp_servers.hub]\nurl = "http://127.0.0.1:1/mcp"\n\n[x]\nb = 2\n\n[mcp_servers.hub.http_headers]\nAuthorization = "Bearer old"\n`;
  const out = editTomlEntry(text, "hub", ROTATED);
  assertEquals(readTomlEntry(out.after, "hub"), ROTATED);
  assertEquals(withoutHub(out.after), withoutHub(text));
  assertEquals(editTomlEntry(out.after, "hub", null).after, `[x]\nb = 2\n`);
});

Deno.test("editTomlEntry refuses a file that does not parse, saying where", () => {
  const error = refused(() => editTomlEntry(`a = 1\n[b\nc = 2\n`, "hub", HTTP));
  assert(error.message.includes("line 2, column 3"), error.message);
  assertEquals(error.details, { line: 2, column: 3 });
  for (const broken of [`a = [`, `a = 1\na = 2`, `[t]\n[t]`, `x = """`]) {
    refused(() => editTomlEntry(broken, "hub", HTTP), broken);
  }
});

Deno.test("editTomlEntry refuses forms it does not edit by lines", () => {
  const cases = [
    `[mcp_servers]\nhub = { command = "x" }\n`,
    `mcp_servers.hub.command = "x"\n`,
    `mcp_servers = { hub = { command = "x" } }\n`,
    `[mcp_servers]\nhub.command = "x"\n`,
    `mcp_servers = 3\n`,
    `[[mcp_servers]]\nname = "x"\n`,
  ];
  for (const text of cases) refused(() => editTomlEntry(text, "hub", HTTP), text);
  refused(() => editTomlEntry(`[mcp_servers]\nhub = "x"\n`, "hub", null));
});

Deno.test("editTomlEntry takes names that need quotes", () => {
  for (const name of ["my.hub", "hub 2"]) {
    const out = editTomlEntry(`[a]\nb = 1\n`, name, HTTP);
    assertEquals(readTomlEntry(out.after, name), HTTP);
    assertEquals(editTomlEntry(out.after, name, HTTP).kind, "up-to-date");
    assertEquals(editTomlEntry(out.after, name, null).after, `[a]\nb = 1\n`);
  }
});

Deno.test("editTomlEntry keeps integers past 2^53 exact, and drops an old env with the transport", () => {
  const text =
    `[limits]\nbig = 9007199254740993\n\n[mcp_servers.hub]\ncommand = "hub"\nargs = ["start", "--stdio"]\n\n[mcp_servers.hub.env]\nHUB_CONFIG_DIR = "/old"\n`;
  const out = editTomlEntry(text, "hub", HTTP);
  assert(out.after.startsWith(`[limits]\nbig = 9007199254740993\n\n[mcp_servers.hub]\n`));
  assertEquals(readTomlEntry(out.after, "hub"), HTTP);
});

Deno.test("editTomlEntry and its JSON twin refuse names no client could show", () => {
  for (const name of ["", " ", "__proto__", "constructor", "a\nb", "x".repeat(101)]) {
    refused(() => editTomlEntry("", name, HTTP), JSON.stringify(name));
  }
});

/** Root keys (first) and tables (any order) that make up generated Codex files. */
const ROOT_PARTS = [
  `model = "o3"\n`,
  `# a comment\n`,
  `\n`,
  `notes = """\n[fake.header]\n  "quoted"\n"""\n`,
  `paths = [\n  "[a]",\n  ['nested'],\n]\n`,
  `lit = '''\n[also.fake]\n'''\n`,
];
const TABLE_PARTS = [
  `[tools]\nweb_search = true # on\n`,
  `\n[mcp_servers.a]\ncommand = "npx"\n\n[mcp_servers.a.env]\nK = "v"\n`,
  `[mcp_servers]\nb = { command = "x" }\n`,
  `\n# profiles\n[profiles.fast]\nmodel = "mini"\n\n`,
  `[[hooks]]\nrun = "a"\n\n[[hooks]]\nrun = "b"\n`,
  `[projects."/home/u/[x]"]\ntrust_level = "trusted"\n`,
  `[ mcp_servers . 'c' ]\nurl = "http://c" # c\n`,
];

/** A small seeded random generator, so that a failure can be replayed. */
function random(seed: number): () => number {
  return () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
}

Deno.test("editTomlEntry round-trips byte for byte over generated Codex files", () => {
  const next = random(32);
  for (let n = 0; n < 300; n++) {
    const pick = <T>(parts: T[]) => parts.filter(() => next() < 0.5).sort(() => next() - 0.5);
    let text = pick(ROOT_PARTS).join("") + pick(TABLE_PARTS).join("");
    if (n % 5 === 0) text = text.replaceAll("\n", "\r\n");
    const added = editTomlEntry(text, "hub", HTTP);
    assert(onlyInserted(text, added.after), `inserted only: ${JSON.stringify(text)}`);
    assertEquals(withoutHub(added.after), withoutHub(text));
    const updated = editTomlEntry(added.after, "hub", STDIO);
    assertEquals(readTomlEntry(updated.after, "hub"), STDIO);
    assertEquals(withoutHub(updated.after), withoutHub(text));
    const removed = editTomlEntry(updated.after, "hub", null).after;
    const expected = text === "" || /\n$/.test(text) ? text : text + (n % 5 ? "\n" : "\r\n");
    assertEquals(removed, expected, JSON.stringify(text));
  }
});

Deno.test("dates are told apart when entries are compared, and kept when hub rewrites its table", () => {
  assertEquals(sameValue(new Date(0), new Date(1)), false);
  assertEquals(sameValue(new Date(5), new Date(5)), true);
  const text = `[mcp_servers.hub]\nurl = "old"\nsince = 2024-01-01\n`;
  const forced = { force: true };
  const out = editTomlEntry(text, "hub", { url: "u", since: new Date(0) }, forced);
  assertEquals(out.kind, "updated");
  assertEquals(out.after, `[mcp_servers.hub]\nurl = "u"\nsince = 1970-01-01T00:00:00.000Z\n`);
  const same = editTomlEntry(out.after, "hub", { url: "u", since: new Date(0) }, forced);
  assertEquals(same.kind, "up-to-date");
});

Deno.test("editTomlEntry refuses an entry with hub's name that is not hub's, and drops risky keys", () => {
  const foreign = `[mcp_servers.hub]\ncommand = "gh"\nargs = ["mcp"]\n\n[other]\na = 1\n`;
  for (const entry of [HTTP, null]) {
    const error = refused(() => editTomlEntry(foreign, "hub", entry), "foreign");
    assert(/hub did not write.*--force/.test(error.message), error.message);
  }
  assertEquals(
    readTomlEntry(editTomlEntry(foreign, "hub", HTTP, { force: true }).after, "hub"),
    HTTP,
  );
  const risky =
    `[mcp_servers.hub]\nurl = "http://127.0.0.1:1/mcp"\nenv_vars = ["LD_PRELOAD"]\ncwd = "/tmp"\ntool_timeout_sec = 9\n`;
  const out = editTomlEntry(risky, "hub", HTTP);
  assertEquals(readTomlEntry(out.after, "hub"), { ...HTTP, tool_timeout_sec: 9 });
});
