import { assertEquals } from "../tests/helpers/assert.ts";
import { BEGIN, END, generatedReadme, mergeReadme } from "./readme.ts";
import type { BuiltPlugin } from "./built_plugin.ts";

const plugin: BuiltPlugin = {
  manifest: {
    name: "notes",
    displayName: "Notes",
    description: "Read notes",
    packageName: "hub-plugin-notes",
    version: "1.0.0",
    urlPatterns: ["*://notes.example.com/*"],
    excludePatterns: [],
    configSchema: {
      mode: { type: "select", label: "Mode", options: ["a", "b|c"], default: "a" },
    },
  },
  tools: {
    sdkVersion: "0.1.0",
    plugin: "notes",
    version: "1.0.0",
    tools: [{
      name: "list_notes",
      displayName: "List notes",
      description: "Lists notes",
      inputSchema: {
        type: "object",
        properties: { q: { type: "string", description: "text | filter" } },
        required: ["q"],
      },
    }],
  },
};

Deno.test("the generated block has the markers, tools, parameters and settings", () => {
  const text = generatedReadme(plugin);
  assertEquals(text.startsWith(BEGIN), true);
  assertEquals(text.endsWith(`${END}\n`), true);
  assertEquals(text.includes("### `notes__list_notes`: List notes"), true);
  assertEquals(text.includes("| `q` | string | yes | text \\| filter |"), true);
  assertEquals(text.includes("`b|c`"), true);
  assertEquals(text.includes("## Settings"), true);
});

Deno.test("mergeReadme replaces only the generated block", () => {
  const current = `Intro\n\n${BEGIN}\nold\n${END}\n\nMy own notes\n`;
  const merged = mergeReadme(current, `${BEGIN}\nnew\n${END}\n`);
  assertEquals(merged, `Intro\n\n${BEGIN}\nnew\n${END}\n\nMy own notes\n`);
});

Deno.test("a README without markers keeps its text below the generated block", () => {
  const merged = mergeReadme("# Mine\n", `${BEGIN}\ngen\n${END}\n`);
  assertEquals(merged, `${BEGIN}\ngen\n${END}\n\n# Mine\n`);
  assertEquals(mergeReadme(undefined, "G\n"), "G\n");
  assertEquals(mergeReadme("  \n", "G\n"), "G\n");
});

Deno.test("merging is stable: regenerating an up-to-date README changes nothing", () => {
  const once = mergeReadme("# Mine\n", generatedReadme(plugin));
  assertEquals(mergeReadme(once, generatedReadme(plugin)), once);
});
