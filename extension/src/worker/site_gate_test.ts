/// <reference lib="deno.ns" />
import { assert, assertEquals, assertMatch } from "../../../tests/helpers/assert.ts";
import type { Permission } from "../../../protocol/permission.ts";
import { hubError } from "../../../protocol/errors.ts";
import { failureOf, fakeMethodContext, withChrome } from "./_test_fixtures.ts";
import { type FakeTab, fakeTabs, gateContext } from "./_site_gate_fixtures.ts";
import { placeCall } from "./browser_methods/call_place.ts";
import type { FrameLookups } from "./browser_methods/frame_target.ts";
import { checkFrameSite, withSiteGate } from "./site_gate.ts";

const TABS: FakeTab[] = [
  { id: 1, url: "https://bank.example/account", active: true },
  { id: 2, url: "http://127.0.0.1:8080/app" },
  { id: 3, url: "about:blank" },
  { id: 4, url: "http://127.0.0.1:8080/app", pendingUrl: "https://bank.example/" },
];

const RULES: Record<string, Permission> = { "bank.example": "off", "127.0.0.1:8080": "auto" };

Deno.test("an off site: SITE_NOT_ALLOWED naming the site, the rule and the fix, and the method never runs", async () => {
  await withChrome(fakeTabs(TABS), async () => {
    const context = gateContext(RULES);
    let ran = false;
    const work = () => Promise.resolve(void (ran = true));
    for (const input of [{ tabId: 1 }, {}]) {
      const failed = await failureOf(withSiteGate("dom.click", input, context, work));
      assertEquals(failed.payload.code, "SITE_NOT_ALLOWED");
      assertEquals(failed.payload.category, "permission");
      assertEquals(
        failed.payload.message,
        'Browser tools are off for bank.example (rule "bank.example"), so hub did nothing in this ' +
          "tab. A person can allow it: hub config set site-permission.bank.example ask (or auto), " +
          "or in the side panel's Sites section.",
      );
      assertEquals(failed.payload.details, {
        site: "bank.example",
        origin: "https://bank.example",
        pattern: "bank.example",
        url: "https://bank.example/account",
      });
    }
    assert(!ran);
    assertEquals(context.agentGroup.joinedTabs, []);
  });
});

Deno.test("the default decides a site without a rule, and the message says so", async () => {
  await withChrome(fakeTabs(TABS), async () => {
    const context = gateContext({});
    context.sites.update({ defaultSitePermission: "off" });
    const failed = await failureOf(withSiteGate("page.text", { tabId: 2 }, context, () => {
      throw new Error("ran");
    }));
    assertMatch(
      failed.payload.message,
      /^Browser tools are off for 127\.0\.0\.1:8080 \(the default for sites without a rule\), so hub did nothing in this tab\./,
    );
    assertEquals(failed.payload.details, {
      site: "127.0.0.1:8080",
      origin: "http://127.0.0.1:8080",
      url: "http://127.0.0.1:8080/app",
    });
  });
});

Deno.test("an auto site runs: the tab is pinned into the input, joins the agent group, the origin is answered and the rule's use recorded", async () => {
  await withChrome(fakeTabs([{ ...TABS[1], active: true }]), async () => {
    const context = gateContext(RULES);
    const input: { tabId?: number } = {};
    const answer = await withSiteGate("page.text", input, context, () => Promise.resolve("text"));
    assertEquals(answer, { value: "text", origin: "http://127.0.0.1:8080" });
    assertEquals(input.tabId, 2);
    assertEquals(context.agentGroup.joinedTabs, [2]);
    assertEquals(context.used, ["127.0.0.1:8080"]);
  });
});

Deno.test("an ask site: SITE_ASK with the site, the URL and the tab, until the call holds the grant", async () => {
  await withChrome(fakeTabs(TABS), async () => {
    const asked = await failureOf(
      withSiteGate("dom.type", { tabId: 1 }, gateContext({}), () => Promise.resolve(1)),
    );
    assertEquals(asked.payload.code, "SITE_ASK");
    assertEquals(asked.payload.details, {
      site: "bank.example",
      origin: "https://bank.example",
      url: "https://bank.example/account",
      tabId: 1,
    });
    const granted = gateContext({}, { grants: ["bank.example"] });
    const answer = await withSiteGate("dom.type", { tabId: 1 }, granted, () => Promise.resolve(1));
    assertEquals(answer, { value: 1, origin: "https://bank.example" });
    assertEquals(
      granted.used,
      [],
      "no rule let it through: the default did, with the person's grant",
    );
  });
});

Deno.test("a tab mid-navigation is checked by its pending URL too", async () => {
  await withChrome(fakeTabs(TABS), async () => {
    const failed = await failureOf(
      withSiteGate("dom.click", { tabId: 4 }, gateContext(RULES), () => Promise.resolve(1)),
    );
    assertEquals(failed.payload.code, "SITE_NOT_ALLOWED");
    assertEquals((failed.payload.details as { url: string }).url, "https://bank.example/");
  });
});

Deno.test("navigation is checked by its destination before anything loads", async () => {
  await withChrome(fakeTabs(TABS), async () => {
    const context = gateContext(RULES);
    let ran = 0;
    const work = () => Promise.resolve({ tabId: 9, url: "https://bank.example/", ran: ++ran });
    for (const method of ["tabs.navigate", "tabs.open"] as const) {
      const failed = await failureOf(
        withSiteGate(method, { tabId: 2, url: "https://bank.example/login" }, context, work),
      );
      assertEquals(failed.payload.code, "SITE_NOT_ALLOWED");
      assertMatch(
        failed.payload.message,
        /, so hub did not open it\. A person can allow it: hub config set site-permission\.bank\.example ask/,
      );
    }
    assertEquals(ran, 0);
    // Navigating acts on the page it leaves: an off tab is not navigated away.
    const left = await failureOf(withSiteGate(
      "tabs.navigate",
      { tabId: 1, url: "http://127.0.0.1:8080/next" },
      context,
      work,
    ));
    assertEquals(left.payload.code, "SITE_NOT_ALLOWED");
    assertMatch(left.payload.message, /off for bank\.example .*, so hub did nothing in this tab\./);
    assertEquals(ran, 0);
    assertEquals(context.agentGroup.joinedTabs, []);
    // From an allowed page to an allowed one: both checked, it runs.
    const moved = await withSiteGate(
      "tabs.navigate",
      { tabId: 2, url: "http://127.0.0.1:8080/next" },
      context,
      () => Promise.resolve({ tabId: 2, url: "http://127.0.0.1:8080/next" }),
    );
    assertEquals(moved.origin, "http://127.0.0.1:8080");
    assertEquals(context.agentGroup.joinedTabs, [2]);
  });
});

Deno.test("a tab the agent opens is its own at once", async () => {
  await withChrome(fakeTabs(TABS), async () => {
    const context = gateContext(RULES, { tabsOnly: true, members: new Set() });
    const opened = await withSiteGate(
      "tabs.open",
      { url: "http://127.0.0.1:8080/new" },
      context,
      () => Promise.resolve({ tabId: 7, url: "http://127.0.0.1:8080/new" }),
    );
    assertEquals(opened.origin, "http://127.0.0.1:8080");
    assertEquals(context.agentGroup.openedTabs, [7]);
  });
});

Deno.test("agentTabsOnly: a tab outside the group is TAB_NOT_IN_AGENT_GROUP; a member runs", async () => {
  await withChrome(fakeTabs(TABS), async () => {
    const context = gateContext(RULES, { tabsOnly: true, members: new Set([3]) });
    const failed = await failureOf(
      withSiteGate("dom.click", { tabId: 2 }, context, () => Promise.resolve(1)),
    );
    assertEquals(failed.payload.code, "TAB_NOT_IN_AGENT_GROUP");
    assertEquals(failed.payload.details, { tabId: 2 });
    assertMatch(failed.payload.message, /hub config set agentTabsOnly false/);
    const answer = await withSiteGate("page.text", { tabId: 3 }, context, () => Promise.resolve(1));
    assertEquals(answer, { value: 1 }, "about:blank has no site and no origin");
  });
});

Deno.test("ungated methods run without a look at any tab; a missing tab fails the call with TAB_NOT_FOUND, nothing runs", async () => {
  await withChrome({}, async () => {
    const context = gateContext({}, { tabsOnly: true, members: new Set() });
    for (
      const method of ["tabs.list", "windows.list", "extension.logs", "downloads.list"] as const
    ) {
      assertEquals(await withSiteGate(method, {}, context, () => Promise.resolve(1)), { value: 1 });
    }
  });
  await withChrome(fakeTabs(TABS), async () => {
    const context = gateContext({});
    let ran = false;
    const missing = await failureOf(
      withSiteGate("tabs.close", { tabId: 99 }, context, () => Promise.resolve(void (ran = true))),
    );
    assertEquals(missing.payload.code, "TAB_NOT_FOUND");
    assert(!ran, "the gate fails closed: no work runs ungated");
    await withSiteGate("tabs.close", { tabId: 2 }, gateContext(RULES), () => Promise.resolve(2));
    assertEquals(context.agentGroup.joinedTabs, [], "a closed tab joins nothing");
  });
});

/** The code of what `check` threw, or "" when it did not throw. */
function thrownCode(check: () => void): string {
  try {
    check();
  } catch (error) {
    return (error as { payload: { code: string } }).payload.code;
  }
  return "";
}

Deno.test("a frame follows its own site", () => {
  const context = gateContext({ "ads.example": "off", "127.0.0.1:8080": "auto" });
  const code = (url: string, grants: string[] = []) =>
    thrownCode(() => checkFrameSite(url, { ...context, siteGrants: grants }));
  assertEquals(code("https://ads.example/frame"), "SITE_NOT_ALLOWED");
  assertEquals(code("https://ads.example/frame", ["ads.example"]), "SITE_NOT_ALLOWED");
  assertEquals(code("http://127.0.0.1:8080/inner"), "");
  assertEquals(code("about:srcdoc"), "");
  assertEquals(code("https://other.example/"), "SITE_ASK");
  assertEquals(code("https://other.example/", ["other.example"]), "");
});

/** A tab (7) whose child frame 3 (document DOC-F, k = 1) shows `frameUrl`, for placeCall. */
async function framedTab(
  frameUrl: string,
  rules: Record<string, Permission>,
  grants: string[] = [],
) {
  const context = fakeMethodContext({ ...gateContext(rules, { grants }), frameSite: {} });
  const { k } = await context.refFrames.schemeFor(7, 3, "DOC-F");
  await context.refFrames.recordDoc(7, k, { token: "t", upTo: 4 }, "DOC-F");
  const lookups: FrameLookups = {
    findElement: () => Promise.resolve({ ok: true, value: { index: 0, tag: "iframe" } }),
    frames: () =>
      Promise.resolve([
        { frameId: 3, parentFrameId: 0, documentId: "DOC-F", url: frameUrl },
      ] as chrome.webNavigation.GetAllFrameResultDetails[]),
    indexes: () => Promise.resolve(new Map([[3, 0]])),
  };
  const fake = {
    webNavigation: {
      getFrame: ({ documentId }: { documentId?: string }) =>
        Promise.resolve(documentId === "DOC-F" ? { url: frameUrl } : null),
    },
  };
  return { context, lookups, fake };
}

Deno.test("a call placed in a frame (by frame selector or by ref) follows the frame's own site", async () => {
  const rules: Record<string, Permission> = { "ads.example": "off", "127.0.0.1:8080": "auto" };
  const off = await framedTab("https://ads.example/frame", rules);
  await withChrome(off.fake, async () => {
    const bySelector = await failureOf(placeCall(7, undefined, "#ad", off.context, off.lookups));
    assertEquals(bySelector.payload.code, "SITE_NOT_ALLOWED");
    assertEquals((bySelector.payload.details as { site: string }).site, "ads.example");
    const byRef = await failureOf(placeCall(7, "f1e2", undefined, off.context, off.lookups));
    assertEquals(byRef.payload.code, "SITE_NOT_ALLOWED");
    assertEquals(off.context.frameSite, {});
  });
  const asked = await framedTab("https://other.example/", rules);
  await withChrome(asked.fake, async () => {
    const failed = await failureOf(placeCall(7, "f1e2", undefined, asked.context, asked.lookups));
    assertEquals(failed.payload.code, "SITE_ASK");
    assertEquals(failed.payload.details, {
      site: "other.example",
      origin: "https://other.example",
      url: "https://other.example/",
    });
  });
  const allowed = await framedTab("https://other.example/", rules, ["other.example"]);
  await withChrome(allowed.fake, async () => {
    const place = await placeCall(7, "f1e2", undefined, allowed.context, allowed.lookups);
    assertEquals(place.target, { tabId: 7, documentIds: ["DOC-F"] });
    assertEquals(allowed.context.frameSite, { origin: "https://other.example" });
  });
});

Deno.test("the origin a frame-placed call noted is the call's origin", async () => {
  await withChrome(fakeTabs([{ ...TABS[1], active: true }]), async () => {
    const context = { ...gateContext(RULES), frameSite: {} as { origin?: string } };
    const answer = await withSiteGate("dom.click", {}, context, () => {
      context.frameSite.origin = "https://inner.example";
      return Promise.resolve(1);
    });
    assertEquals(answer, { value: 1, origin: "https://inner.example" });
  });
});

Deno.test("a call that failed after touching the tab joins it; one refused before touching it does not", async () => {
  await withChrome(fakeTabs(TABS), async () => {
    const context = gateContext(RULES);
    const notFound = () => Promise.reject(hubError("ELEMENT_NOT_FOUND", "no #x"));
    const refused = () => Promise.reject(hubError("SITE_NOT_ALLOWED", "a frame is off"));
    assertEquals(
      (await failureOf(withSiteGate("dom.click", { tabId: 2 }, context, notFound)))
        .payload.code,
      "ELEMENT_NOT_FOUND",
    );
    assertEquals(context.agentGroup.joinedTabs, [2]);
    await failureOf(withSiteGate("dom.click", { tabId: 3 }, context, refused));
    assertEquals(context.agentGroup.joinedTabs, [2]);
  });
});

Deno.test("a call placed in an about:srcdoc frame follows the frame's real origin", async () => {
  const srcdoc = await framedTab("about:srcdoc", { "ads.example": "off" });
  const fake = {
    ...srcdoc.fake,
    scripting: {
      executeScript: ({ target }: { target: { documentIds?: string[] } }) =>
        Promise.resolve([{
          result: target.documentIds?.[0] === "DOC-F" ? "https://ads.example" : "null",
        }]),
    },
  };
  await withChrome(fake, async () => {
    const failed = await failureOf(placeCall(7, "f1e2", undefined, srcdoc.context, srcdoc.lookups));
    assertEquals(failed.payload.code, "SITE_NOT_ALLOWED");
    assertEquals((failed.payload.details as { site: string }).site, "ads.example");
  });
});
