/// <reference lib="deno.ns" />
import { assertEquals } from "../../../../tests/helpers/assert.ts";
import { failureOf, fakeMethodContext, withChrome } from "../_test_fixtures.ts";
import { pageSnapshot } from "./page_snapshot.ts";
import type { DocOutline } from "./snapshot_compose.ts";

interface Scheme {
  prefix: string;
  base: number;
}

/** A document of the fake tab: its frame, and its outline as the kit writes it for a scheme. */
interface FakeDoc {
  frameId: number;
  parentFrameId: number;
  /** Undefined: the document cannot be scripted. */
  outline?: (scheme: Scheme) => DocOutline;
}

/** A fake chrome with one tab (id 4) holding `docs` (keyed by documentId). */
function fakeTab(docs: Map<string, FakeDoc>) {
  const schemes = new Map<string, Scheme>();
  const calls: [string, Record<string, unknown>][] = [];
  const chrome = {
    tabs: { get: (id: number) => Promise.resolve({ id, url: "http://tab/", title: "Tab" }) },
    webNavigation: {
      getAllFrames: () =>
        Promise.resolve(
          [...docs].map(([documentId, d]) => ({
            frameId: d.frameId,
            parentFrameId: d.parentFrameId,
            documentId,
            documentLifecycle: "active",
            url: `http://x/${d.frameId}`,
          })),
        ),
    },
    scripting: {
      executeScript({ target, args }: { target: { documentIds: string[] }; args: unknown[] }) {
        const [documentId] = target.documentIds;
        const doc = docs.get(documentId);
        if (!doc?.outline) return Promise.reject(new Error("Cannot access contents of url"));
        const scheme = args[5] as Scheme;
        schemes.set(documentId, scheme);
        calls.push([documentId, args[3] as Record<string, unknown>]);
        const value = doc.outline(scheme);
        const result = { ok: true, value, doc: { token: `T-${documentId}`, upTo: 9 } };
        return Promise.resolve([{ frameId: doc.frameId, documentId, result }]);
      },
    },
  };
  return { chrome, schemes, calls };
}

const outline = (index: number, lines: string[], frames: DocOutline["frames"] = []) => ({
  url: `http://x/${index}`,
  title: "Top page",
  index,
  lines,
  frames,
});

/** A page.snapshot of tab 4 with room for the whole outline; `more` adds or replaces input fields. */
function snapshot(
  context: ReturnType<typeof fakeMethodContext>,
  more: Record<string, unknown> = {},
) {
  return pageSnapshot({ tabId: 4, maxBytes: 20_000, offset: 0, ...more } as never, context);
}

function threeDeep(button = "Pay") {
  return new Map<string, FakeDoc>([
    ["D0", {
      frameId: 0,
      parentFrameId: -1,
      outline: ({ prefix }) =>
        outline(-1, [`- heading "Shop" [level=1] [ref=${prefix}e1]`, '- iframe "Checkout"'], [
          { line: 1, index: 0, ref: `${prefix}e2` },
        ]),
    }],
    ["D1", {
      frameId: 11,
      parentFrameId: 0,
      outline: ({ prefix }) =>
        outline(0, ["- form", '  - iframe "Card"', '- iframe "Ads"'], [
          { line: 1, index: 0, ref: `${prefix}e1` },
          { line: 2, index: 1, ref: `${prefix}e2` },
        ]),
    }],
    ["D2", {
      frameId: 12,
      parentFrameId: 11,
      outline: ({ prefix }) => outline(0, [`- button "${button}" [ref=${prefix}e1]`]),
    }],
    ["D3", { frameId: 13, parentFrameId: 11 }], // the ads frame cannot be scripted
  ]);
}

Deno.test("page.snapshot nests every frame's outline, refs by each document's k", async () => {
  const fake = fakeTab(threeDeep());
  await withChrome(fake.chrome, async () => {
    const context = fakeMethodContext();
    const result = await snapshot(context);
    const k1 = fake.schemes.get("D1")!.prefix;
    const k2 = fake.schemes.get("D2")!.prefix;
    assertEquals(fake.schemes.get("D0")!.prefix, "");
    assertEquals(result.text.split("\n"), [
      "# Top page — http://x/-1",
      '- heading "Shop" [level=1] [ref=e1]',
      `- iframe "Checkout" [ref=${k1}]`,
      "  - form",
      `    - iframe "Card" [ref=${k2}]`,
      `      - button "Pay" [ref=${k2}e1]`,
      `  - iframe "Ads" [not read] [ref=${k1}e2]`,
    ]);
    assertEquals(result.truncated, false);
    assertEquals(result.totalBytes, new TextEncoder().encode(result.text).length);
    assertEquals(/^s\d+$/.test(result.snapshotId), true);
    assertEquals([result.tabId, result.title, result.url], [4, "Top page", "http://x/-1"]);
  });
});

Deno.test("page.snapshot with since answers the changes; an unknown since is REF_STALE", async () => {
  const docs = threeDeep();
  const fake = fakeTab(docs);
  await withChrome(fake.chrome, async () => {
    const context = fakeMethodContext();
    const first = await snapshot(context);
    docs.set("D2", {
      ...docs.get("D2")!,
      outline: ({ prefix }) => outline(0, [`- button "Paid" [ref=${prefix}e1]`]),
    });
    const changes = await snapshot(context, { since: first.snapshotId });
    const k2 = fake.schemes.get("D2")!.prefix;
    assertEquals(changes.text.split("\n"), [
      "# Top page — http://x/-1",
      `# changes since ${first.snapshotId}`,
      `~       - button "Paid" [ref=${k2}e1]`,
    ]);
    const stale = await failureOf(snapshot(context, { since: "s999999" }));
    assertEquals(stale.payload.code, "REF_STALE");
  });
});

Deno.test("page.snapshot with since lists no line of a frame that did not answer as removed", async () => {
  const docs = threeDeep();
  const fake = fakeTab(docs);
  await withChrome(fake.chrome, async () => {
    const context = fakeMethodContext();
    const first = await snapshot(context);
    docs.set("D2", { ...docs.get("D2")!, outline: undefined }); // busy now: it does not answer
    const changes = await snapshot(context, { since: first.snapshotId });
    const k1 = fake.schemes.get("D1")!.prefix;
    assertEquals(changes.text.split("\n"), [
      "# Top page — http://x/-1",
      `# changes since ${first.snapshotId}`,
      `+     - iframe "Card" [not read] [ref=${k1}e1]`,
    ]);
  });
});

Deno.test("page.snapshot of a top document another one replaced while it was read is TAB_NAVIGATED (R2#15)", async () => {
  const context = fakeMethodContext();
  const docs = new Map<string, FakeDoc>([
    ["D0", {
      frameId: 0,
      parentFrameId: -1,
      outline: ({ prefix }) => {
        // The tab navigates meanwhile: a call takes k = 0 for the new page first.
        void context.refFrames.schemeFor(4, 0, "NEW");
        return outline(-1, [`- button "Old" [ref=${prefix}e1]`]);
      },
    }],
  ]);
  await withChrome(fakeTab(docs).chrome, async () => {
    const failure = await failureOf(snapshot(context));
    assertEquals(failure.payload.code, "TAB_NAVIGATED");
    // The old page's numbers (up to 9 in the fake) are never handed out again.
    assertEquals((await context.refFrames.schemeFor(4, 0, "NEWER")).scheme.base, 10);
  });
});

Deno.test("page.snapshot pages a long outline with offset, and the parts make the whole", async () => {
  const many = Array.from(
    { length: 300 },
    (_, i) => `- button "Button number ${i}" [ref=e${i + 1}]`,
  );
  const docs = new Map<string, FakeDoc>([
    ["D0", { frameId: 0, parentFrameId: -1, outline: () => outline(-1, many) }],
  ]);
  await withChrome(fakeTab(docs).chrome, async () => {
    const context = fakeMethodContext();
    const parts: string[] = [];
    let offset = 0;
    let id: string | undefined;
    for (;;) {
      const input = { tabId: 4, maxBytes: 1_000, offset };
      const part = await pageSnapshot(input as never, context);
      id ??= part.snapshotId;
      assertEquals(part.snapshotId, id); // later parts cut the same stored answer
      parts.push(part.text);
      if (!part.truncated) break;
      offset = part.nextOffset!;
    }
    assertEquals(parts.join(""), ["# Top page — http://x/-1", ...many].join("\n"));
    assertEquals(parts.length > 5, true);
  });
});

Deno.test("page.snapshot with a ref outlines its element's subtree in its document", async () => {
  const fake = fakeTab(threeDeep());
  await withChrome(fake.chrome, async () => {
    const context = fakeMethodContext();
    await snapshot(context);
    const k2 = fake.schemes.get("D2")!.prefix;
    fake.calls.length = 0;
    const sub = await snapshot(context, { ref: `${k2}e1` });
    assertEquals(fake.calls[0], [
      "D2",
      {
        ref: { n: 1, token: "T-D2", text: `${k2}e1` },
        interactiveOnly: undefined,
        includeHidden: undefined,
      },
    ]);
    assertEquals(fake.calls.length, 1, "no frame under D2 to read");
    assertEquals(sub.text.split("\n").slice(1), [`- button "Pay" [ref=${k2}e1]`]);
    const stale = await failureOf(snapshot(context, { ref: "f9999e1" }));
    assertEquals(stale.payload.code, "REF_STALE");
  });
});
