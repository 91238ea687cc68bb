/// <reference lib="deno.ns" />
import { assert, assertEquals, assertMatch } from "../../../tests/helpers/assert.ts";
import {
  clip,
  findAll,
  findFirst,
  isKitFailure,
  type KitFailure,
  pickAttributes,
} from "./dom_find.ts";

Deno.test("clip collapses whitespace and cuts with an ellipsis", () => {
  assertEquals(clip("  a \n\t b  "), "a b");
  assertEquals(clip("abcdef", 4), "abc…");
  assertEquals(clip("abcd", 4), "abcd");
  assertEquals(clip("x".repeat(500)).length, 200);
});

Deno.test("pickAttributes keeps the listed attributes that are present, clipped", () => {
  const attributes: Record<string, string> = {
    id: "email",
    type: "email",
    "aria-label": "Your email",
    "data-x": "not listed",
    title: "t".repeat(300),
    alt: "",
  };
  const picked = pickAttributes((name) => attributes[name] ?? null);
  assertEquals(Object.keys(picked), ["id", "type", "aria-label", "title", "alt"]);
  assertEquals(picked.alt, "", "an empty attribute is still present");
  assertEquals(picked.title.length, 200);
});

/** Runs `body` with a fake `document` whose querySelector(All) behave as given. */
function withDocument(fake: { querySelector(s: string): unknown }, body: () => void) {
  const page = globalThis as Record<string, unknown>;
  const saved = { document: page.document, location: page.location };
  page.document = {
    ...fake,
    querySelectorAll: (s: string) => {
      const found = fake.querySelector(s);
      return found ? [found] : [];
    },
  };
  page.location = { href: "http://127.0.0.1:1234/form" };
  try {
    body();
  } finally {
    page.document = saved.document;
    page.location = saved.location;
  }
}

function failureOf(run: () => unknown): KitFailure {
  try {
    run();
  } catch (error) {
    if (isKitFailure(error)) return error;
    throw error;
  }
  throw new Error("expected a KitFailure");
}

Deno.test("findFirst / findAll: a bad selector is INVALID_SELECTOR with the browser's reason", () => {
  withDocument({
    querySelector: () => {
      throw new SyntaxError("'a[[' is not a valid selector.");
    },
  }, () => {
    for (const find of [findFirst, findAll]) {
      const failure = failureOf(() => find("a[["));
      assertEquals(failure.code, "INVALID_SELECTOR");
      assertMatch(failure.message, /^"a\[\[" is not a valid CSS selector: 'a\[\[' is not/);
    }
  });
});

Deno.test("findFirst: no match is ELEMENT_NOT_FOUND naming the selector, page and next step", () => {
  withDocument({ querySelector: () => null }, () => {
    const failure = failureOf(() => findFirst("#missing"));
    assertEquals(failure.code, "ELEMENT_NOT_FOUND");
    assertMatch(failure.message, /"#missing"/);
    assertMatch(failure.message, /http:\/\/127\.0\.0\.1:1234\/form/);
    assertMatch(failure.message, /browser_query_elements/);
    assertEquals(findAll("#missing"), [], "findAll finds nothing without failing");
  });
});

Deno.test("a long selector is quoted clipped, so the message keeps its hint", () => {
  const long = `#${"x".repeat(1_999)}`;
  withDocument({ querySelector: () => null }, () => {
    const failure = failureOf(() => findFirst(long));
    assert(failure.message.length < 700, `${failure.message.length} characters`);
    assertMatch(failure.message, /… \(2000 characters\)"/);
    assertMatch(failure.message, /browser_query_elements/);
  });
  withDocument({
    querySelector: (s: string) => {
      throw new SyntaxError(`'${s}' is not a valid selector.`);
    },
  }, () => {
    const failure = failureOf(() => findFirst(long));
    assertEquals(failure.code, "INVALID_SELECTOR");
    assert(failure.message.length < 1_000, `${failure.message.length} characters`);
  });
});
