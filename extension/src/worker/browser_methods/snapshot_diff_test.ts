/// <reference lib="deno.ns" />
import { assertEquals } from "../../../../tests/helpers/assert.ts";
import { diffOutlines, keyLines } from "./snapshot_diff.ts";

const HEAD = { title: "Shop", url: "http://x/" };
const outline = (...lines: string[]) => ["# Old — http://x/", ...lines].join("\n");

Deno.test("diffOutlines marks added, removed and changed lines in the new order", () => {
  const before = outline(
    '- heading "Cart" [level=1] [ref=e1]',
    "- list",
    '  - listitem "Apple" [ref=e2]',
    '    - button "Remove" [ref=e3]',
    '  - listitem "Pear" [ref=e4]',
    "- text: 2 items",
    '- checkbox "Gift" [ref=e5]',
  );
  const after = outline(
    '- heading "Cart" [level=1] [ref=e1]',
    "- list",
    '  - listitem "Pear" [ref=e4]',
    '  - listitem "Plum" [ref=e6]',
    "- text: 2 items",
    '- checkbox "Gift" [checked] [ref=e5]',
  );
  assertEquals(diffOutlines(before, after, "s3", HEAD).split("\n"), [
    "# Shop — http://x/",
    "# changes since s3",
    '-   - listitem "Apple" [ref=e2]',
    '-     - button "Remove" [ref=e3]',
    '+   - listitem "Plum" [ref=e6]',
    '~ - checkbox "Gift" [checked] [ref=e5]',
  ]);
});

Deno.test("diffOutlines keys lines without a ref by their nearest ref ancestor and text", () => {
  const before = outline('- region "A" [ref=e1]', "  - text: Hello", '- region "B" [ref=e2]');
  const after = outline(
    '- region "A" [ref=e1]',
    '- region "B" [ref=e2]',
    "  - text: Hello",
  );
  assertEquals(diffOutlines(before, after, "s1", HEAD).split("\n").slice(2), [
    "-   - text: Hello",
    "+   - text: Hello",
  ]);
});

Deno.test("diffOutlines says when nothing changed", () => {
  const same = outline('- button "Go" [ref=e1]', "- text: hi");
  assertEquals(diffOutlines(same, same, "s2", HEAD), "# Shop — http://x/\n# no changes since s2");
});

Deno.test("keyLines never reads a ref out of page text", () => {
  const keys = keyLines(
    outline("- text: click [ref=e9]", '- button "x [ref=e8]"', "- text: a", "- text: a"),
  );
  assertEquals(keys.map((k) => k.key), [
    "|- text: click [ref=e9]#1",
    '|- button "x [ref=e8]"#1',
    "|- text: a#1",
    "|- text: a#2",
  ]);
});

Deno.test("diffOutlines lists no line of a frame the new outline could not read as removed (R2#2)", () => {
  const before = outline(
    '- iframe "Payment" [ref=f3]',
    "  - text: Card details",
    '  - textbox "Card" [ref=f3e1]',
    '- iframe "News" [ref=f4]',
    "  - text: old news",
  );
  const after = outline(
    '- iframe "Payment" [not read] [ref=e1]',
    '- iframe "News" [ref=f4]',
    "  - text: new news",
  );
  assertEquals(diffOutlines(before, after, "s1", HEAD, new Set([3])).split("\n").slice(2), [
    '+ - iframe "Payment" [not read] [ref=e1]',
    "-   - text: old news",
    "+   - text: new news",
  ]);
  assertEquals(
    diffOutlines(before, after, "s1", HEAD).split("\n").filter((l) => l.startsWith("-")).length,
    4,
  );
});

Deno.test("diffOutlines lists no removals when an outline stopped at its size limit", () => {
  const before = '# T — u\n- button "A" [ref=e1]\n- button "B" [ref=e2]\n- button "C" [ref=e3]';
  const after = '# T — u\n- button "A" [ref=e1]\n- button "N" [ref=e9]\n' +
    "# outline stopped: this tab's outline passed 100 characters; outline a part with ref or " +
    "selector";
  const diff = diffOutlines(before, after, "s1", { title: "T", url: "u" }).split("\n");
  assertEquals(diff[1], "# changes since s1");
  assertEquals(diff[2].startsWith("# an outline stopped at its size limit"), true);
  assertEquals(diff.slice(3), ['+ - button "N" [ref=e9]']);
});
