import { assert, assertEquals, assertRejects } from "../../tests/helpers/assert.ts";
import { ensureSecret, generateSecret, readSecret, redactSecret, writeSecret } from "./secret.ts";

Deno.test("generateSecret gives 64 lowercase hex characters, different each time", () => {
  const a = generateSecret();
  assert(/^[0-9a-f]{64}$/.test(a));
  assert(a !== generateSecret());
});

Deno.test("ensureSecret creates auth.json (0600) once and then reads it back", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/extension/auth.json`;
    const first = await ensureSecret(path);
    assertEquals(first.created, true);
    assertEquals((await Deno.stat(path)).mode! & 0o777, 0o600);
    assertEquals(JSON.parse(await Deno.readTextFile(path)), { secret: first.secret });
    assertEquals(await ensureSecret(path), { secret: first.secret, created: false });
    const rotated = generateSecret();
    await writeSecret(path, rotated);
    assertEquals(await readSecret(path), rotated);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("an invalid auth.json is an error with the fix, never replaced silently", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/auth.json`;
    await Deno.writeTextFile(path, '{"secret": "short"}');
    await assertRejects(ensureSecret(path), /rotate-secret --confirm/);
    assertEquals(await Deno.readTextFile(path), '{"secret": "short"}');
    assertEquals(await readSecret(`${dir}/missing.json`), undefined);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("redactSecret keeps only a prefix", () => {
  const secret = "ab".repeat(32);
  assertEquals(redactSecret(secret), "abababab…(redacted)");
  assertEquals(redactSecret(undefined), "(none)");
});
