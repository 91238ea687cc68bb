import { assert, assertEquals, assertMatch } from "../../tests/helpers/assert.ts";
import { HubError, hubError } from "../../protocol/errors.ts";
import {
  PDF_INLINE_MAX_BYTES,
  UPLOAD_MAX_BASE64_BYTES,
} from "../../protocol/browser_methods/files.ts";
import { parseBrowserInput } from "../../protocol/browser_methods/mod.ts";
import type { LocalFiles, PrepareContext } from "./browser_tool_interface.ts";
import { prepareUpload, uploadFile } from "./upload_file.ts";
import { savePdf } from "./save_pdf.ts";

/** Local files that record what they were asked; `/ok/...` paths are allowed, the rest refused. */
function fakeFiles() {
  const written: { name: string; bytes: Uint8Array }[] = [];
  const saved: { path: string; bytes: Uint8Array }[] = [];
  const discarded: string[] = [];
  const files: LocalFiles = {
    readable(path) {
      if (!path.startsWith("/ok/")) {
        return Promise.reject(hubError("FILE_NOT_ALLOWED", `${path} is outside`));
      }
      return Promise.resolve({ path: `/real${path}`, bytes: 3 });
    },
    temporary(name, bytes) {
      written.push({ name, bytes });
      return Promise.resolve(`/uploads/${written.length}/${name}`);
    },
    discard(paths) {
      discarded.push(...paths);
      return Promise.resolve();
    },
    writable(path) {
      return path.startsWith("/ok/")
        ? Promise.resolve(`/real${path}`)
        : Promise.reject(hubError("FILE_NOT_ALLOWED", `${path} is outside`));
    },
    write(path, bytes) {
      if (path.includes("exists")) {
        return Promise.reject(hubError("FILE_NOT_ALLOWED", `${path}: pick a new name`));
      }
      saved.push({ path, bytes });
      return Promise.resolve();
    },
  };
  const context: PrepareContext = { files, now: () => 0 };
  return { files, context, written, saved, discarded };
}

async function failure(promise: Promise<unknown>): Promise<HubError> {
  const error = await promise.then(() => undefined, (thrown) => thrown);
  assert(error instanceof HubError, `expected a HubError, got ${error}`);
  return error;
}

const b64 = (text: string) => btoa(text);

Deno.test("upload: paths become real paths, base64 files temp files, in order", async () => {
  const { context, written } = fakeFiles();
  const input = {
    selector: "#f",
    files: [
      { path: "/ok/a.txt" },
      { name: "b.csv", mimeType: "text/csv", contentBase64: b64("x,y") },
    ],
  };
  const prepared = await prepareUpload(input, context);
  assertEquals(prepared, {
    selector: "#f",
    files: [{ path: "/real/ok/a.txt" }, { path: "/uploads/1/b.csv" }],
  });
  assertEquals(new TextDecoder().decode(written[0].bytes), "x,y");
  // What the extension receives still parses with the method's schema.
  assert(parseBrowserInput("files.upload", prepared).ok);
});

Deno.test("upload: a refused path writes no base64 file", async () => {
  const { context, written } = fakeFiles();
  const error = await failure(prepareUpload({
    ref: "e1",
    files: [{ name: "b.txt", contentBase64: b64("b") }, { path: "/etc/passwd" }],
  }, context));
  assertEquals(error.code, "FILE_NOT_ALLOWED");
  assertEquals(written.length, 0);
});

Deno.test("upload: a refused path removes the copies already made of the others", async () => {
  const { context, written, discarded } = fakeFiles();
  const error = await failure(prepareUpload({
    ref: "e1",
    files: [{ path: "/ok/a.txt" }, { path: "/etc/passwd" }, { path: "/ok/b.txt" }],
  }, context));
  assertEquals(error.code, "FILE_NOT_ALLOWED");
  assertEquals(discarded, ["/real/ok/a.txt", "/real/ok/b.txt"]);
  assertEquals(written.length, 0);
});

Deno.test("upload: bad base64 is INVALID_ARGUMENTS; too much is FILE_TOO_LARGE", async () => {
  const { context } = fakeFiles();
  const bad = await failure(prepareUpload({
    ref: "e1",
    files: [{ name: "b.txt", contentBase64: "not base64!" }],
  }, context));
  assertEquals(bad.code, "INVALID_ARGUMENTS");
  const big = "A".repeat(Math.ceil((UPLOAD_MAX_BASE64_BYTES + 3) / 3) * 4);
  const large = await failure(prepareUpload({
    ref: "e1",
    files: [{ name: "big.bin", contentBase64: big }],
  }, context));
  assertEquals(large.code, "FILE_TOO_LARGE");
  assertMatch(large.message, /pass its path instead/);
});

Deno.test("upload's schema: one target, 1-10 files, entries of one kind, plain names", () => {
  const ok = (input: unknown) => parseBrowserInput("files.upload", input).ok;
  assert(ok({ ref: "e1", files: [{ path: "/tmp/a" }] }));
  assert(ok({ selector: "input", files: [{ name: "a.txt", contentBase64: "" }] }));
  assert(!ok({ files: [{ path: "/tmp/a" }] }), "no target");
  assert(!ok({ ref: "e1", selector: "x", files: [{ path: "/tmp/a" }] }), "two targets");
  assert(!ok({ ref: "e1", files: [] }), "no file");
  assert(!ok({ ref: "e1", files: Array(11).fill({ path: "/tmp/a" }) }), "eleven files");
  assert(!ok({ ref: "e1", files: [{ path: "/tmp/a", name: "a", contentBase64: "" }] }), "mixed");
  assert(!ok({ ref: "e1", files: [{ name: "../a", contentBase64: "" }] }), "a folder in the name");
  assert(!ok({ ref: "e1", files: [{ name: "..", contentBase64: "" }] }), "..");
  assertEquals(uploadFile.method, "files.upload");
});

Deno.test("save_pdf: prepare checks the path; without one the input is unchanged", async () => {
  const { context } = fakeFiles();
  assertEquals(await savePdf.prepare!({ tabId: 3 }, context), { tabId: 3 });
  assertEquals(await savePdf.prepare!({ path: "/ok/p.pdf" }, context), { path: "/real/ok/p.pdf" });
  assertEquals(
    (await failure(savePdf.prepare!({ path: "/etc/p.pdf" }, context))).code,
    "FILE_NOT_ALLOWED",
  );
});

Deno.test("save_pdf: with a path the hub writes the bytes and answers the path", async () => {
  const { files, saved } = fakeFiles();
  const data = b64("%PDF-1.7 test");
  const content = await savePdf.toContent!({ tabId: 3, url: "http://x/", bytes: 13, data }, {
    input: { path: "/real/ok/p.pdf" },
    now: () => 0,
    saveFile: () => Promise.reject(new Error("unused")),
    files,
  });
  assertEquals(saved.map((s) => [s.path, new TextDecoder().decode(s.bytes)]), [
    ["/real/ok/p.pdf", "%PDF-1.7 test"],
  ]);
  assertEquals(content.length, 1);
  assert(content[0].type === "text");
  assertEquals(JSON.parse(content[0].text), {
    tabId: 3,
    url: "http://x/",
    path: "/real/ok/p.pdf",
    bytes: 13,
  });
});

Deno.test("save_pdf: a refusal at write time (a file appeared, the folder changed) is the agent's to see", async () => {
  const { files } = fakeFiles();
  const error = await failure(
    savePdf.toContent!({ tabId: 3, url: "http://x/", bytes: 4, data: b64("%PDF") }, {
      input: { path: "/real/ok/exists.pdf" },
      now: () => 0,
      saveFile: () => Promise.reject(new Error("unused")),
      files,
    }),
  );
  assertEquals(error.code, "FILE_NOT_ALLOWED");
  assertMatch(error.message, /pick a new name/);
});

Deno.test("save_pdf: without a path it answers base64, bounded", async () => {
  const context = { input: {}, now: () => 0, saveFile: () => Promise.reject(new Error("unused")) };
  const data = b64("%PDF-1.7");
  const [block] = await savePdf.toContent!({ tabId: 3, url: "http://x/", bytes: 8, data }, context);
  assert(block.type === "text");
  assertEquals(JSON.parse(block.text), {
    tabId: 3,
    url: "http://x/",
    bytes: 8,
    mimeType: "application/pdf",
    contentBase64: data,
  });
  const big = new Uint8Array(PDF_INLINE_MAX_BYTES + 1).toBase64();
  const error = await failure(
    savePdf.toContent!({ tabId: 3, url: "u", bytes: PDF_INLINE_MAX_BYTES + 1, data: big }, context),
  );
  assertEquals(error.code, "FILE_TOO_LARGE");
});
