import { findNodeAtLocation, parseTree } from "jsonc-parser";
import { assert, assertEquals } from "../../tests/helpers/assert.ts";
import type { McpFileFormat } from "./clients.ts";
import { editJsonEntry, readJsonEntry, serversPath } from "./edit_json.ts";
import { SetupError } from "./setup_error.ts";

const HTTP = {
  type: "http",
  url: "http://127.0.0.1:7000/mcp",
  headers: { Authorization: "Bearer old-secret" },
};
const ROTATED = { ...HTTP, headers: { Authorization: "Bearer new-secret" } };
const STDIO = { command: "/usr/bin/deno", args: ["run", "/x/main.ts", "start", "--stdio"] };

/** Realistic files: comments, trailing commas, other servers and settings, each file's own style. */
const FILES: Array<[McpFileFormat, string]> = [
  [
    "mcpServers",
    `// Cursor MCP servers\n{\n  "mcpServers": {\n    "github": { "command": "npx", "args": ["-y", "gh"] }, // inline\n    /* docs */\n    "docs": {\n      "url": "https://docs.example/mcp",\n    },\n  },\n}\n`,
  ],
  [
    "claudeCode",
    `{\n  "numStartups": 42,\n  "projects": {\n    "/home/u/app": { "mcpServers": { "hub": { "type": "sse" } } }\n  },\n  "mcpServers": {\n    "fs": {\n      "type": "stdio",\n      "command": "npx",\n      "args": []\n    }\n  },\n  "theme": "dark"\n}`,
  ],
  [
    "vscodeMcp",
    `{\n\t// VS Code\n\t"inputs": [],\n\t"servers": {\n\t\t"fetch": {\n\t\t\t"type": "stdio",\n\t\t\t"command": "uvx",\n\t\t\t"args": ["mcp-server-fetch"],\n\t\t},\n\t},\n}\n`,
  ],
  [
    "vscodeSettings",
    `{\n    "editor.fontSize": 13, // big\n    "mcp": {\n        "servers": {}\n    }\n}\n`,
  ],
];

/** The SetupError `run` throws; fails when it throws none. */
function refused(run: () => unknown, what = ""): SetupError {
  try {
    run();
  } catch (error) {
    assert(error instanceof SetupError, `${what}: ${error}`);
    return error;
  }
  throw new Error(`not refused: ${what}`);
}

/** The range of `before` that differs from `after`: [start, end) after common prefix and suffix. */
function changedRange(before: string, after: string): [number, number] {
  let start = 0;
  while (start < before.length && before[start] === after[start]) start++;
  let end = 0;
  while (
    end < before.length - start && end < after.length - start &&
    before[before.length - 1 - end] === after[after.length - 1 - end]
  ) end++;
  return [start, before.length - end];
}

/** Asserts that `before` and `after` differ only inside hub's entry (as it is in `before`). */
function onlyEntryChanged(format: McpFileFormat, before: string, after: string) {
  const [start, end] = changedRange(before, after);
  const node = findNodeAtLocation(parseTree(before)!, [...serversPath(format), "hub"])!.parent!;
  assert(start >= node.offset && end <= node.offset + node.length, `changed ${start}..${end}`);
}

for (const [format, text] of FILES) {
  Deno.test(`editJsonEntry (${format}): add, update after a rotation, up to date, remove, byte for byte`, () => {
    const added = editJsonEntry(text, format, "hub", HTTP);
    assertEquals(added.kind, "added");
    assertEquals(added.before, text);
    const [start, end] = changedRange(text, added.after);
    assertEquals(start, end, "adding only inserts text");
    assertEquals(readJsonEntry(added.after, format, "hub"), HTTP);

    const updated = editJsonEntry(added.after, format, "hub", ROTATED);
    assertEquals(updated.kind, "updated");
    onlyEntryChanged(format, added.after, updated.after);
    assertEquals(readJsonEntry(updated.after, format, "hub"), ROTATED);
    assertEquals(
      updated.after.replace("new-secret", "old-secret"),
      added.after,
      "only the secret changed",
    );

    const same = editJsonEntry(updated.after, format, "hub", ROTATED);
    assertEquals(same.kind, "up-to-date");
    assertEquals(same.after, updated.after);

    const removed = editJsonEntry(updated.after, format, "hub", null);
    assertEquals(removed.kind, "removed");
    assertEquals(removed.after, text, "removing gives back the file as it was");

    const absent = editJsonEntry(text, format, "hub", null);
    assertEquals(absent.kind, "absent");
    assertEquals(absent.after, text);
  });
}

Deno.test("editJsonEntry keeps the user's own keys and drops the old transport's", () => {
  const text =
    `{\n  "mcpServers": {\n    "hub": {\n      "url": "http://127.0.0.1:1/mcp",\n      "disabled": false,\n      "timeout": 30\n    }\n  }\n}\n`;
  const out = editJsonEntry(text, "mcpServers", "hub", STDIO);
  assertEquals(out.kind, "updated");
  assertEquals(readJsonEntry(out.after, "mcpServers", "hub"), {
    disabled: false,
    timeout: 30,
    ...STDIO,
  });
  assertEquals(editJsonEntry(out.after, "mcpServers", "hub", STDIO).kind, "up-to-date");
});

Deno.test("editJsonEntry writes a new file for no file, blank text or an empty object", () => {
  for (const text of ["", "  \n", "{}", "{ }\n"]) {
    const out = editJsonEntry(text, "vscodeMcp", "hub", HTTP);
    assertEquals(out.kind, "added");
    assertEquals(JSON.parse(out.after), { servers: { hub: HTTP } });
    assert(out.after.endsWith("}\n"));
  }
  assertEquals(editJsonEntry("", "mcpServers", "hub", null).kind, "absent");
  const nested = editJsonEntry("", "vscodeSettings", "hub", HTTP).after;
  assertEquals(JSON.parse(nested), { mcp: { servers: { hub: HTTP } } });
});

Deno.test("editJsonEntry adds the servers key to a file without one, in its style", () => {
  const text = `{\n    "theme": "dark" // mine\n}\n`;
  const out = editJsonEntry(text, "mcpServers", "hub", HTTP);
  const [start, end] = changedRange(text, out.after);
  assertEquals(start, end, "adding only inserts text");
  assert(out.after.includes(`\n    "mcpServers": {\n        "hub": {\n`), out.after);
  assertEquals(editJsonEntry(out.after, "mcpServers", "hub", HTTP).kind, "up-to-date");
});

Deno.test("editJsonEntry keeps a BOM and CRLF line ends", () => {
  const text = `\uFEFF{\r\n  "mcpServers": {\r\n    "a": {}\r\n  }\r\n}\r\n`;
  const out = editJsonEntry(text, "mcpServers", "hub", HTTP);
  assert(out.after.startsWith("\uFEFF{\r\n"));
  assert(!/[^\r]\n/.test(out.after), "no bare LF");
  assertEquals(editJsonEntry(out.after, "mcpServers", "hub", null).after, text);
});

Deno.test("editJsonEntry refuses a file that does not parse, saying where", () => {
  const error = refused(() =>
    editJsonEntry(`{\n  "mcpServers": {\n    "a" 1\n  }\n}`, "mcpServers", "hub", HTTP)
  );
  assert(error.message.includes("line 3, column 9"), error.message);
  assertEquals(error.details, { line: 3, column: 9 });
  for (const broken of ["{", "[1,", "{} {}", `{"a": tru}`, "[".repeat(100_000)]) {
    refused(() => editJsonEntry(broken, "mcpServers", "hub", HTTP), broken.slice(0, 20));
  }
});

Deno.test("editJsonEntry refuses a servers key that is not an object, or a doubled name", () => {
  const cases = [
    `[]`,
    `"text"`,
    `{"mcpServers": []}`,
    `{"mcpServers": null}`,
    `{"mcpServers": {"hub": {}, "hub": {}}}`,
    `{"mcpServers": {}, "mcpServers": {}}`,
  ];
  for (const text of cases) {
    refused(() => editJsonEntry(text, "mcpServers", "hub", HTTP), text);
  }
  refused(() => editJsonEntry(`{"mcp": 1}`, "vscodeSettings", "hub", HTTP));
  refused(() => editJsonEntry("", "codexToml", "hub", HTTP));
});

Deno.test("editJsonEntry replaces an entry that is not an object only when forced", () => {
  const text = `{"mcpServers": {"hub": "old"}}`;
  refused(() => editJsonEntry(text, "mcpServers", "hub", HTTP), "not hub's");
  const out = editJsonEntry(text, "mcpServers", "hub", HTTP, { force: true });
  assertEquals(out.kind, "updated");
  assertEquals(readJsonEntry(out.after, "mcpServers", "hub"), HTTP);
});

Deno.test("editJsonEntry takes any server name, dots and quotes included", () => {
  for (const name of ["my.hub", 'a "b"', "hub/2"]) {
    const out = editJsonEntry(`{"mcpServers": {"x": 1}}`, "mcpServers", name, HTTP);
    assertEquals(JSON.parse(out.after).mcpServers[name], HTTP);
    assertEquals(
      editJsonEntry(out.after, "mcpServers", name, null).after,
      `{"mcpServers": {"x": 1}}`,
    );
  }
});

Deno.test("editJsonEntry drops an old stdio env when switching, and refuses unsafe names", () => {
  const text =
    `{"mcpServers": {"hub": {"command": "deno", "args": ["/x/main.ts", "start", "--stdio"], "env": {"HUB_CONFIG_DIR": "/old"}}}}`;
  const out = editJsonEntry(text, "mcpServers", "hub", HTTP);
  assertEquals(readJsonEntry(out.after, "mcpServers", "hub"), HTTP);
  for (const name of ["", "__proto__", "prototype", "a\u0000b"]) {
    refused(() => editJsonEntry("{}", "mcpServers", name, HTTP), JSON.stringify(name));
  }
});

Deno.test("editJsonEntry lays hub's entry out on its own lines in an empty servers object", () => {
  const text = `{\n\t"servers": {},\n\t"inputs": []\n}\n`;
  const out = editJsonEntry(text, "vscodeMcp", "hub", HTTP);
  assert(
    out.after.startsWith(`{\n\t"servers": {\n\t\t"hub": {\n\t\t\t"type": "http",\n`),
    out.after,
  );
  assert(out.after.endsWith(`\n\t\t}\n\t},\n\t"inputs": []\n}\n`), out.after);
  assertEquals(editJsonEntry(out.after, "vscodeMcp", "hub", null).after, text);
  const commented = `{\n  "mcpServers": {\n    // none yet\n  }\n}`;
  const added = editJsonEntry(commented, "mcpServers", "hub", HTTP).after;
  assertEquals(readJsonEntry(added, "mcpServers", "hub"), HTTP);
  assertEquals(editJsonEntry(added, "mcpServers", "hub", null).after, commented);
});

/** A small seeded random generator, so that a failure can be replayed. */
function random(seed: number): () => number {
  return () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
}

/** A generated settings file: other settings, comments, a servers object with other servers. */
function generated(next: () => number): string {
  const unit = ["  ", "    ", "\t"][Math.floor(next() * 3)];
  const comma = (last: boolean) => last ? (next() < 0.3 ? "," : "") : ",";
  const comment = () => next() < 0.3 ? ` // note ${Math.floor(next() * 9)}` : "";
  const servers = ["a", "b", "c"].filter(() => next() < 0.5).map((name, i, all) =>
    `${unit}${unit}"${name}": { "command": "x${i}" }${comma(i === all.length - 1)}${comment()}`
  );
  const members = [
    `${unit}"theme": "dark"`,
    `${unit}/* block */ "list": [1, 2]`,
    `${unit}"mcpServers": {${servers.length ? "\n" + servers.join("\n") + "\n" + unit : ""}}`,
  ].filter((_, i) => i === 0 || next() < 0.7).sort(() => next() - 0.5);
  const body = members.map((m, i) => `${m}${comma(i === members.length - 1)}${comment()}`);
  const text = `${next() < 0.3 ? "// top\n" : ""}{\n${body.join("\n")}\n}\n`;
  return next() < 0.2 ? text.replaceAll("\n", "\r\n") : text;
}

Deno.test("editJsonEntry round-trips byte for byte over generated JSONC files", () => {
  const next = random(32);
  for (let n = 0; n < 300; n++) {
    const text = generated(next);
    const added = editJsonEntry(text, "mcpServers", "hub", HTTP);
    const [start, end] = changedRange(text, added.after);
    assertEquals(start, end, `adding only inserts text: ${JSON.stringify(text)}`);
    const updated = editJsonEntry(added.after, "mcpServers", "hub", ROTATED);
    assertEquals(updated.after.replace("new-secret", "old-secret"), added.after);
    const removed = editJsonEntry(updated.after, "mcpServers", "hub", null).after;
    if (text.includes(`"mcpServers"`)) assertEquals(removed, text, JSON.stringify(text));
    else assertEquals(removed.replace(/,?\s*"mcpServers": \{\}/, ""), text, JSON.stringify(text));
  }
});

Deno.test("editJsonEntry refuses to replace or remove an entry with hub's name that is not hub's", () => {
  const text =
    `{\n  "mcpServers": {\n    "hub": { "command": "gh-hub", "env": { "GITHUB_TOKEN": "t" } }\n  }\n}\n`;
  for (const entry of [HTTP, STDIO, null]) {
    const error = refused(() => editJsonEntry(text, "mcpServers", "hub", entry), "foreign");
    assert(/hub did not write.*--name.*--force/.test(error.message), error.message);
  }
  const forced = editJsonEntry(text, "mcpServers", "hub", HTTP, { force: true });
  assertEquals(readJsonEntry(forced.after, "mcpServers", "hub"), HTTP);
  for (const url of ["http://localhost:7/mcp/gateway", "http://[::1]:7/mcp/"]) {
    const own = `{"mcpServers": {"hub": {"url": "${url}"}}}`;
    assertEquals(editJsonEntry(own, "mcpServers", "hub", HTTP).kind, "updated");
  }
  const remote = `{"mcpServers": {"hub": {"url": "http://example.com/mcp"}}}`;
  refused(() => editJsonEntry(remote, "mcpServers", "hub", HTTP), "remote url");
});

Deno.test("editJsonEntry keeps only harmless keys of an existing hub entry", () => {
  const text = JSON.stringify({
    servers: {
      hub: {
        type: "http",
        url: "http://127.0.0.1:1/mcp",
        trust: true,
        envFile: "${workspaceFolder}/.evil.env",
        dev: { watch: "x" },
        autoApprove: ["*"],
        disabled: true,
        timeout: 5,
      },
    },
  });
  const out = editJsonEntry(text, "vscodeMcp", "hub", STDIO);
  assertEquals(readJsonEntry(out.after, "vscodeMcp", "hub"), {
    ...STDIO,
    disabled: true,
    timeout: 5,
  });
});
