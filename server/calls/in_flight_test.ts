import { assert, assertEquals } from "../../tests/helpers/assert.ts";
import { createInFlight, MAX_IN_FLIGHT_PER_PLUGIN } from "./in_flight.ts";

/** Acquires `n` slots of a group, asserting each succeeds. */
function fill(inFlight: ReturnType<typeof createInFlight>, group: string, n: number) {
  return Array.from({ length: n }, (_, i) => {
    const release = inFlight.acquire(group);
    assert(release, `acquire ${i + 1} of ${group} succeeds`);
    return release;
  });
}

Deno.test("25 acquires succeed and the 26th returns undefined", () => {
  assertEquals(MAX_IN_FLIGHT_PER_PLUGIN, 25);
  const inFlight = createInFlight();
  fill(inFlight, "slack", 25);
  assertEquals(inFlight.count("slack"), 25);
  assertEquals(inFlight.acquire("slack"), undefined);
  assertEquals(inFlight.acquire("slack"), undefined);
  assertEquals(inFlight.count("slack"), 25, "refused acquires take no slot");
});

Deno.test("release frees one slot for the next acquire", () => {
  const inFlight = createInFlight();
  const releases = fill(inFlight, "slack", 25);
  releases[3]();
  assertEquals(inFlight.count("slack"), 24);
  const again = inFlight.acquire("slack");
  assert(again, "a freed slot can be taken");
  assertEquals(inFlight.count("slack"), 25);
  assertEquals(inFlight.acquire("slack"), undefined);
});

Deno.test("releasing the same slot twice counts once", () => {
  const inFlight = createInFlight();
  const releases = fill(inFlight, "slack", 25);
  releases[0]();
  releases[0]();
  releases[0]();
  assertEquals(inFlight.count("slack"), 24);
  assert(inFlight.acquire("slack"));
  assertEquals(inFlight.acquire("slack"), undefined, "a double release did not free a 2nd slot");
});

Deno.test("a double release after the group emptied does not go negative", () => {
  const inFlight = createInFlight();
  const [first] = fill(inFlight, "slack", 1);
  first();
  first();
  assertEquals(inFlight.count("slack"), 0);
  fill(inFlight, "slack", 25);
  assertEquals(inFlight.acquire("slack"), undefined);
});

Deno.test("groups are independent", () => {
  const inFlight = createInFlight();
  fill(inFlight, "slack", 25);
  assertEquals(inFlight.acquire("slack"), undefined);
  const releases = fill(inFlight, "github", 25);
  assertEquals(inFlight.acquire("github"), undefined);
  assertEquals(inFlight.count("browser"), 0);
  releases.forEach((release) => release());
  assertEquals(inFlight.count("github"), 0);
  assertEquals(inFlight.count("slack"), 25);
  assertEquals(inFlight.acquire("slack"), undefined);
});

Deno.test("a custom limit is honoured", () => {
  const inFlight = createInFlight(2);
  fill(inFlight, "g", 2);
  assertEquals(inFlight.acquire("g"), undefined);
});
