import { assert, assertEquals, assertRejects } from "../../tests/helpers/assert.ts";
import { readJsonBody, readOptionalJsonBody } from "./body.ts";
import { HubError, restStatus } from "../../protocol/errors.ts";

/** A request whose body is a stream (no Content-Length, like a chunked upload). */
function streamed(chunks: number, chunkBytes: number) {
  let pulled = 0;
  const chunk = new TextEncoder().encode(" ".repeat(chunkBytes));
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled++ < chunks) controller.enqueue(chunk);
      else controller.close();
    },
  });
  const req = new Request("http://127.0.0.1/x", { method: "POST", body });
  return { req, pulled: () => pulled };
}

const isStatus = (status: number) => (error: unknown) =>
  error instanceof HubError && restStatus(error) === status;

Deno.test("a JSON body is parsed; an empty optional body is undefined", async () => {
  const req = new Request("http://127.0.0.1/x", { method: "POST", body: '{"a":[1,"é"]}' });
  assertEquals(await readJsonBody(req), { a: [1, "é"] });
  const empty = new Request("http://127.0.0.1/x", { method: "POST" });
  assertEquals(await readOptionalJsonBody(empty), undefined);
});

Deno.test("a declared Content-Length over the limit is refused before reading", async () => {
  const req = new Request("http://127.0.0.1/x", {
    method: "POST",
    body: "{}",
    headers: { "content-length": "2000" },
  });
  await assertRejects(() => readJsonBody(req, 1000), isStatus(413));
});

Deno.test("a streamed body is cut off once it passes the limit, not read to its end", async () => {
  const { req, pulled } = streamed(1000, 1024);
  await assertRejects(() => readJsonBody(req, 10 * 1024), isStatus(413));
  assert(pulled() < 20, `read ${pulled()} chunks of 1 KB for a 10 KB limit`);
});

Deno.test("a streamed body within the limit is read whole", async () => {
  const { req } = streamed(3, 1024);
  await assertRejects(() => readJsonBody(req, 10 * 1024), isStatus(400)); // only spaces: empty
  const ok = new Request("http://127.0.0.1/x", {
    method: "POST",
    body: new Blob(['{"k":', '"v"}']).stream(),
  });
  assertEquals(await readJsonBody(ok, 100), { k: "v" });
});
