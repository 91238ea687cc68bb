/// <reference lib="deno.ns" />
/**
 * The site gate on documents whose URL has no site (decided by their real origin), on where a
 * navigation landed (a redirect), and the fix command a refusal names.
 */
import { assert, assertEquals, assertMatch } from "../../../tests/helpers/assert.ts";
import { failureOf, withChrome } from "./_test_fixtures.ts";
import { fakeTabs, gateContext } from "./_site_gate_fixtures.ts";
import { checkFrameSite, withSiteGate } from "./site_gate.ts";
import { documentSiteUrl } from "./document_origin.ts";
import { HubError } from "../../../protocol/errors.ts";

const RULES = { "bank.example": "off", "127.0.0.1:8080": "auto" } as const;

Deno.test("a page with no site of its own is decided by its real origin: an off site's blob: or about:blank is refused", async () => {
  const tabs = [
    { id: 1, url: "about:blank" },
    { id: 2, url: "blob:https://bank.example/5f0c" },
    { id: 3, url: "about:blank" },
    { id: 4, url: "chrome://newtab/" },
  ];
  const origins = { "1": "https://bank.example", "2": "https://bank.example", "3": "null" };
  await withChrome(fakeTabs(tabs, origins), async () => {
    const context = gateContext(RULES);
    let ran = 0;
    const work = () => Promise.resolve(++ran);
    for (const tabId of [1, 2]) {
      const failed = await failureOf(withSiteGate("page.text", { tabId }, context, work));
      assertEquals(failed.payload.code, "SITE_NOT_ALLOWED", `tab ${tabId}`);
      assertEquals((failed.payload.details as { site: string }).site, "bank.example");
    }
    assertEquals(ran, 0);
    // An opaque origin ("null") and a page that cannot be scripted have no site: as before.
    assertEquals(await withSiteGate("page.text", { tabId: 3 }, context, work), { value: 1 });
    assertEquals(await withSiteGate("page.text", { tabId: 4 }, context, work), { value: 2 });
  });
});

Deno.test("an allowed page with no site of its own answers its real origin", async () => {
  await withChrome(
    fakeTabs([{ id: 5, url: "about:blank" }], { "5": "http://127.0.0.1:8080" }),
    async () => {
      const answer = await withSiteGate(
        "page.text",
        { tabId: 5 },
        gateContext(RULES),
        () => Promise.resolve(1),
      );
      assertEquals(answer, { value: 1, origin: "http://127.0.0.1:8080" });
    },
  );
});

Deno.test("documentSiteUrl: a URL with a site is itself, unread; else the origin read in the document", async () => {
  let reads = 0;
  const read = (at: { frameId?: number }) => {
    reads++;
    return Promise.resolve(at.frameId === 3 ? "https://bank.example" : "null");
  };
  const at = { tabId: 7, frameId: 3 };
  assertEquals(await documentSiteUrl("https://a.example/x", at, read), "https://a.example/x");
  assertEquals(reads, 0);
  assertEquals(await documentSiteUrl("about:srcdoc", at, read), "https://bank.example");
  assertEquals(await documentSiteUrl("about:blank", { tabId: 7, frameId: 4 }, read), undefined);
  const broken = () => Promise.reject(new Error("Frame with ID 3 was removed."));
  assertEquals(await documentSiteUrl("about:srcdoc", at, broken), undefined);
});

Deno.test("a navigation an allowed URL redirected to an off site: SITE_NOT_ALLOWED, nothing of the page answered, the tab not the agent's", async () => {
  await withChrome(fakeTabs([{ id: 2, url: "http://127.0.0.1:8080/app" }]), async () => {
    const context = gateContext(RULES);
    const to = "http://127.0.0.1:8080/go";
    const landed = { tabId: 2, url: "https://bank.example/home", title: "Bank", loaded: true };
    for (const method of ["tabs.navigate", "tabs.open"] as const) {
      const failed = await failureOf(
        withSiteGate(method, { tabId: 2, url: to }, context, () => Promise.resolve(landed)),
      );
      assertEquals(failed.payload.code, "SITE_NOT_ALLOWED");
      assertEquals(
        failed.payload.message,
        'Browser tools are off for bank.example (rule "bank.example"), and the allowed URL ' +
          `${to} redirected there: hub read nothing from the page. A person can allow it: hub ` +
          "config set site-permission.bank.example ask (or auto), or in the side panel's Sites " +
          "section.",
      );
      assert(!JSON.stringify(failed.payload).includes('Bank"'), "no title");
    }
    assertEquals(context.agentGroup.joinedTabs, []);
    assertEquals(context.agentGroup.openedTabs, []);
  });
});

Deno.test("a navigation that landed on an ask site the call was not granted: answered without the page's title", async () => {
  await withChrome(fakeTabs([{ id: 2, url: "http://127.0.0.1:8080/app" }]), async () => {
    const context = gateContext(RULES);
    const landed = { tabId: 2, url: "https://other.example/", title: "Other", loaded: true };
    const opened = await withSiteGate(
      "tabs.open",
      { url: "http://127.0.0.1:8080/go" },
      context,
      () => Promise.resolve(landed),
    );
    assertEquals(opened.value, { tabId: 2, url: "https://other.example/", loaded: true });
    const granted = gateContext(RULES, { grants: ["other.example"] });
    const kept = await withSiteGate(
      "tabs.navigate",
      { tabId: 2, url: "http://127.0.0.1:8080/go" },
      granted,
      () => Promise.resolve(landed),
    );
    assertEquals(kept.value, landed);
  });
});

Deno.test("the fix command names an exact host, host:port or origin rule that decided; a *. rule or the default: the site key", async () => {
  const fixOf = async (rules: Record<string, "off">, url: string) => {
    const failed = await failureOf(
      withSiteGate("tabs.open", { url }, gateContext(rules), () => Promise.resolve({})),
    );
    return /hub config set site-permission\.(\S+) ask/.exec(failed.payload.message)?.[1];
  };
  assertEquals(
    await fixOf({ "https://app.example.com": "off" }, "https://app.example.com/"),
    "https://app.example.com",
  );
  assertEquals(
    await fixOf({ "example.com:8443": "off" }, "https://example.com:8443/"),
    "example.com:8443",
  );
  assertEquals(await fixOf({ localhost: "off" }, "http://localhost:4100/"), "localhost");
  assertEquals(
    await fixOf({ "*.example.com": "off" }, "https://app.example.com/"),
    "app.example.com",
  );
  const byDefault = gateContext({});
  byDefault.sites.update({ defaultSitePermission: "off" });
  const failed = await failureOf(
    withSiteGate("tabs.open", { url: "http://127.0.0.1:9/" }, byDefault, () => Promise.resolve({})),
  );
  assertMatch(failed.payload.message, /site-permission\.127\.0\.0\.1:9 ask/);
  assertEquals((failed.payload.details as { origin: string }).origin, "http://127.0.0.1:9");
});

Deno.test("a frame call let through by a rule records that rule's use", () => {
  const context = gateContext({ "ads.example": "auto" });
  checkFrameSite("https://ads.example/frame", context);
  checkFrameSite("https://none.example/", { ...context, siteGrants: ["none.example"] });
  assertEquals(context.used, ["ads.example"]);
});

Deno.test("a navigation within one allowed site records its rule's use once", async () => {
  await withChrome(fakeTabs([{ id: 2, url: "http://127.0.0.1:8080/app" }]), async () => {
    const context = gateContext(RULES);
    const url = "http://127.0.0.1:8080/next";
    await withSiteGate("tabs.navigate", { tabId: 2, url }, context, () => Promise.resolve({ url }));
    assertEquals(context.used, ["127.0.0.1:8080"]);
  });
});

Deno.test("documentSiteUrl: a document that does not answer in time fails closed (SITE_NOT_ALLOWED)", async () => {
  const never = () => new Promise<string | undefined>(() => {});
  const error = await documentSiteUrl("about:blank", { tabId: 7 }, never, 10).then(
    () => undefined,
    (e) => e,
  );
  assert(error instanceof HubError, String(error));
  assertEquals(error.payload.code, "SITE_NOT_ALLOWED");
  assertEquals(error.payload.details, { url: "about:blank" });
});

Deno.test("documentSiteUrl: a tab with no committed document (empty URL) or a chrome:// page is not read", async () => {
  let reads = 0;
  const read = () => (reads++, new Promise<string | undefined>(() => {}));
  assertEquals(await documentSiteUrl("", { tabId: 7 }, read, 10), "");
  assertEquals(await documentSiteUrl(undefined, { tabId: 7 }, read, 10), undefined);
  assertEquals(
    await documentSiteUrl("chrome://newtab/", { tabId: 7 }, read, 10),
    "chrome://newtab/",
  );
  assertEquals(reads, 0);
});
