/// <reference lib="deno.ns" />
import { assert, assertEquals } from "../../../tests/helpers/assert.ts";
import { isSecretHeader, keptHeaderValue, keptUrl, redactUrl } from "./network_redact.ts";

Deno.test("headers named like a secret are redacted, by pattern; ordinary ones are kept", () => {
  for (
    const name of [
      "Authorization",
      "Proxy-Authorization",
      "Cookie",
      "set-cookie",
      "X-Api-Key",
      "x-goog-api-key",
      "apikey",
      "api_key",
      "X-Amz-Security-Token",
      "X-CSRFToken",
      "X-XSRF-TOKEN",
      "Private-Token",
      "X-Access-Token",
      "x-refresh-token",
      "X-Session-Token",
      "x-session-id",
      "X-Client-Secret",
      "X-Password",
      "X-Hub-Signature-256",
      "X-Amz-Credential",
      "DPoP",
      "Sec-WebSocket-Key",
    ]
  ) assert(isSecretHeader(name), name);
  for (
    const name of [
      "Content-Type",
      "Content-Length",
      "Accept",
      "Accept-Language",
      "Cache-Control",
      "User-Agent",
      "Keep-Alive",
      "Location",
      "Referer",
      "Origin",
      "ETag",
      "X-Request-Id",
      "Monkey",
    ]
  ) assert(!isSecretHeader(name), name);
  assertEquals(keptHeaderValue("x-goog-api-key", "AIzaSy123"), "[redacted: 9 characters]");
  assertEquals(keptHeaderValue("Content-Type", "text/html"), "text/html");
});

Deno.test("URLs keep their shape; secret query values, fragments and user:password are redacted", () => {
  assertEquals(
    redactUrl("https://app.test/callback?code=abc123&state=xyz&lang=en"),
    "https://app.test/callback?code=[redacted: 6 characters]&state=xyz&lang=en",
  );
  assertEquals(
    redactUrl(
      "https://b.s3.amazonaws.com/f.pdf?X-Amz-Algorithm=AWS4&X-Amz-Credential=AK%2F1" +
        "&X-Amz-Signature=deadbeef&X-Amz-Security-Token=tok",
    ),
    "https://b.s3.amazonaws.com/f.pdf?X-Amz-Algorithm=AWS4&X-Amz-Credential=[redacted: 6 " +
      "characters]&X-Amz-Signature=[redacted: 8 characters]&X-Amz-Security-Token=[redacted: " +
      "3 characters]",
  );
  assertEquals(
    redactUrl("https://s.test/o?X-Goog-Signature=ff&KEY=k1&sig=s&sid=9&page=2&Token"),
    "https://s.test/o?X-Goog-Signature=[redacted: 2 characters]&KEY=[redacted: 2 characters]" +
      "&sig=[redacted: 1 characters]&sid=[redacted: 1 characters]&page=2&Token",
  );
  for (
    const name of [
      "access_token",
      "id_token",
      "refresh_token",
      "auth",
      "api_key",
      "apikey",
      "secret",
      "client_secret",
      "password",
      "signature",
      "session",
      "PHPSESSID",
      "jwt",
    ]
  ) {
    assertEquals(redactUrl(`/p?${name}=v1`), `/p?${name}=[redacted: 2 characters]`, name);
  }
  // An encoded name is recognized; empty values and plain parameters stay.
  assertEquals(
    redactUrl("/p?access%5Ftoken=zz&code=&q=a%20b"),
    "/p?access%5Ftoken=[redacted: 2 characters]&code=&q=a%20b",
  );
  // OAuth's implicit flow puts the token in the fragment.
  assertEquals(
    redactUrl("https://app.test/#access_token=abc&expires_in=3600"),
    "https://app.test/#access_token=[redacted: 3 characters]&expires_in=3600",
  );
  assertEquals(
    redactUrl("https://bob:hunter2@db.test:8080/x?y=1"),
    "https://[redacted: 11 characters]@db.test:8080/x?y=1",
  );
  // An @ in the path is not userinfo; URLs without secrets are untouched.
  assertEquals(redactUrl("https://a.test/@user/x"), "https://a.test/@user/x");
  assertEquals(redactUrl("https://a.test/api/items?page=2"), "https://a.test/api/items?page=2");
  assertEquals(
    keptHeaderValue("Location", "/cb?code=secret1"),
    "/cb?code=[redacted: 7 characters]",
  );
  assertEquals(
    keptHeaderValue("referer", "https://a.test/?token=t"),
    "https://a.test/?token=[redacted: 1 characters]",
  );
  // Redacted before the cut, so a long secret value never shows even in part.
  const long = keptUrl(`https://a.test/?token=${"s".repeat(5_000)}&x=1`);
  assertEquals(long, "https://a.test/?token=[redacted: 5000 characters]&x=1");
});
