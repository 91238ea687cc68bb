/**
 * browser_upload_file and browser_save_pdf end to end: real hub, real Chromium with the installed
 * extension, the test web app (tests/fixtures/web_app/files_pages.ts), whose server echoes the
 * bytes it received from the page's form. Files come from a path, from base64, through a file
 * chooser a button opens, and by ref; paths outside the allowed folders are refused before the
 * page is touched; the PDF is saved and starts with %PDF.
 */
import { join } from "node:path";
import type { Frame, Page } from "playwright-core";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { callTool, type E2E, e2eTest } from "../helpers/e2e_fixture.ts";
import { eventually } from "../helpers/hub_api.ts";
import { runHub } from "../helpers/hub_process.ts";
import { failed, ok, tabIdOf } from "../helpers/tool_replies.ts";
import type { EchoedFile } from "../fixtures/web_app/files_pages.ts";

const text = (value: string) => new TextEncoder().encode(value);

/** What the server echoed for the page's last upload (waits for a new answer). */
async function echoed(page: Page | Frame, previous = ""): Promise<EchoedFile[]> {
  let shown = "";
  await eventually(async () => {
    shown = (await page.textContent("#result")) ?? "";
    return shown !== "" && shown !== previous;
  }, () => `no upload answer on the page; #events: ${shown}`);
  return (JSON.parse(shown) as { files: EchoedFile[] }).files;
}

/** `hub config set debugger <mode>` against the running hub, which tells the extension. */
async function setDebugger(e2e: E2E, mode: "auto" | "off") {
  const args = ["config", "set", "debugger", mode, "--port", String(e2e.hub.port)];
  const set = await runHub(args, { configDir: e2e.configDir });
  assertEquals(set.code, 0, set.stderr);
}

function upload(e2e: E2E, args: Record<string, unknown>) {
  return callTool(e2e, "browser_upload_file", args);
}

e2eTest(import.meta.url, "file uploads and PDFs in a real Chromium", {
  config: {
    permissions: { "test-app": { permission: "auto" }, browser: { permission: "auto" } },
  },
}, async (t, { e2e }) => {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "hub-files-e2e-" }));
  try {
    await t.step("browser_upload_file", (t) => uploadSteps(t, e2e, dir));
    await t.step("browser_save_pdf", (t) => pdfSteps(t, e2e, dir));
    await t.step("with the debugger setting off: DEBUGGER_OFF, nothing written", async () => {
      await setDebugger(e2e, "off");
      const page = await e2e.open("/files/upload?off=1");
      try {
        const tabId = await tabIdOf(e2e, page);
        const path = join(dir, "notes.txt");
        let reply: Awaited<ReturnType<typeof upload>> | undefined;
        await eventually(async () => {
          reply = await upload(e2e, { tabId, selector: "#single", files: [{ path }] });
          return reply.body?.structuredContent?.error?.code === "DEBUGGER_OFF";
        }, () => `the upload answered ${JSON.stringify(reply?.body)}`);
        failed(await callTool(e2e, "browser_save_pdf", { tabId, path: join(dir, "off.pdf") }), {
          status: 422,
          code: "DEBUGGER_OFF",
          message: /hub config set debugger auto/,
        });
        assert(!(await Deno.stat(join(dir, "off.pdf")).then(() => true, () => false)));
        assertEquals(await page.textContent("#result"), "");
      } finally {
        await page.close();
        await setDebugger(e2e, "auto");
      }
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

async function uploadSteps(t: Deno.TestContext, e2e: E2E, dir: string) {
  const path = join(dir, "notes.txt");
  await Deno.writeFile(path, text("hello from a path\n"));
  const page = await e2e.open("/files/upload");
  const tabId = await tabIdOf(e2e, page);
  try {
    await t.step(
      "a path: the input gets the file, its change event fires, the server gets the bytes",
      async () => {
        const value = ok(
          await upload(e2e, { tabId, selector: "#single", files: [{ path }] }),
          "upload a path",
        );
        assertEquals([value.tabId, value.files, value.via], [tabId, ["notes.txt"], "input"]);
        const [file] = await echoed(page);
        assertEquals([file.field, file.name, file.size], ["single", "notes.txt", 18]);
        assertEquals(atob(file.base64), "hello from a path\n");
        assertMatch((await page.textContent("#events"))!, /change:single/);
      },
    );

    await t.step(
      "base64 files into an input that takes several, with the types of their names",
      async () => {
        const before = (await page.textContent("#result")) ?? "";
        const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 255]);
        const value = ok(
          await upload(e2e, {
            tabId,
            selector: "#many",
            files: [
              { name: "table.csv", mimeType: "text/csv", contentBase64: btoa("a,b\n1,2\n") },
              { name: "dot.png", contentBase64: png.toBase64() },
            ],
          }),
          "upload base64",
        );
        assertEquals(value.files, ["table.csv", "dot.png"]);
        const files = await echoed(page, before);
        assertEquals(files.map((f) => [f.field, f.name, f.type, f.size]), [
          ["many", "table.csv", "text/csv", 8],
          ["many", "dot.png", "image/png", 8],
        ]);
        assertEquals(files[1].base64, png.toBase64());
      },
    );

    await t.step("by ref from browser_query_elements", async () => {
      const before = (await page.textContent("#result")) ?? "";
      const query = ok(
        await callTool(e2e, "browser_query_elements", { tabId, selector: "#single" }),
        "query",
      );
      const ref = query.elements[0].ref as string;
      const value = ok(
        await upload(e2e, {
          tabId,
          ref,
          files: [{ name: "by-ref.txt", contentBase64: btoa("r") }],
        }),
        "upload by ref",
      );
      assertEquals(value.element.ref, ref);
      assertEquals((await echoed(page, before)).map((f) => f.name), ["by-ref.txt"]);
    });

    await t.step(
      "a button that opens a file chooser: a real click, the chooser is filled",
      async () => {
        const before = (await page.textContent("#result")) ?? "";
        const value = ok(
          await upload(e2e, { tabId, selector: "#chooser", files: [{ path }] }),
          "upload through the chooser",
        );
        assertEquals([value.via, value.input, value.element.tag], ["chooser", "trusted", "button"]);
        const [file] = await echoed(page, before);
        assertEquals([file.field, file.name, atob(file.base64)], [
          "hidden",
          "notes.txt",
          "hello from a path\n",
        ]);
      },
    );

    await t.step(
      "in a cross-origin frame: a selector with frame, and a chooser there",
      async () => {
        const framed = await e2e.open("/files/framed");
        try {
          const framedTab = await tabIdOf(e2e, framed);
          await framed.frameLocator("#upload").locator("#single").waitFor({ state: "attached" });
          const inFrame = framed.frames().find((f) => f.url().includes("localhost"))!;
          const at = { tabId: framedTab, frame: "#upload" };
          const value = ok(
            await upload(e2e, { ...at, selector: "#single", files: [{ path }] }),
            "upload in a frame",
          );
          assertEquals(value.via, "input");
          assertMatch(value.element.ref, /^f\d+e\d+$/);
          const [file] = await echoed(inFrame);
          assertEquals([file.field, file.name], ["single", "notes.txt"]);
          const before = (await inFrame.textContent("#result")) ?? "";
          const chooser = ok(
            await upload(e2e, { ...at, selector: "#chooser", files: [{ path }] }),
            "chooser in a frame",
          );
          assertEquals(chooser.via, "chooser");
          assertEquals((await echoed(inFrame, before)).map((f) => f.field), ["hidden"]);
        } finally {
          await framed.close();
        }
      },
    );

    await t.step(
      "refusals: outside the allowed folders, relative, the config folder, no input",
      async () => {
        failed(
          await upload(e2e, { tabId, selector: "#single", files: [{ path: "/etc/passwd" }] }),
          {
            status: 422,
            code: "FILE_NOT_ALLOWED",
            message: /outside the folders browser tools may use/,
          },
        );
        failed(await upload(e2e, { tabId, selector: "#single", files: [{ path: "notes.txt" }] }), {
          status: 422,
          code: "FILE_NOT_ALLOWED",
          message: /not absolute/,
        });
        const config = join(e2e.configDir, "config.json");
        failed(await upload(e2e, { tabId, selector: "#single", files: [{ path: config }] }), {
          status: 422,
          code: "FILE_NOT_ALLOWED",
          message: /config folder/,
        });
        failed(await upload(e2e, { tabId, selector: "#plain", files: [{ path }] }), {
          status: 422,
          code: "NOT_A_FILE_INPUT",
          message: /opened no file chooser/,
        });
        failed(await upload(e2e, { tabId, selector: "#single", files: [{ path }, { path }] }), {
          status: 400,
          code: "INVALID_ARGUMENTS",
          message: /takes one file/,
        });
        failed(await upload(e2e, { tabId, selector: "#nothing-here", files: [{ path }] }), {
          status: 422,
          code: "ELEMENT_NOT_FOUND",
        });
      },
    );
  } finally {
    await page.close();
  }
}

async function pdfSteps(t: Deno.TestContext, e2e: E2E, dir: string) {
  const page = await e2e.open("/files/print");
  const tabId = await tabIdOf(e2e, page);
  /** The answer's JSON text (the tool answers text only: it may carry the PDF). */
  const answer = async (args: Record<string, unknown>) => {
    const reply = await callTool(e2e, "browser_save_pdf", { tabId, ...args });
    assertEquals(reply.status, 200, JSON.stringify(reply.body).slice(0, 500));
    return JSON.parse(reply.body.content[0].text);
  };
  try {
    await t.step("saved at a path under the allowed folders", async () => {
      const path = join(dir, "page.pdf");
      const value = await answer({ path });
      assertEquals([value.tabId, value.path, value.url], [tabId, path, page.url()]);
      const bytes = await Deno.readFile(path);
      assertEquals(value.bytes, bytes.length);
      assertEquals(new TextDecoder().decode(bytes.slice(0, 5)), "%PDF-");
    });

    await t.step("without a path: the PDF as base64", async () => {
      const value = await answer({});
      assertEquals(value.mimeType, "application/pdf");
      const bytes = Uint8Array.fromBase64(value.contentBase64);
      assertEquals(bytes.length, value.bytes);
      assertEquals(new TextDecoder().decode(bytes.slice(0, 5)), "%PDF-");
    });

    await t.step("refused outside the allowed folders and for other names", async () => {
      const call = (path: string) => callTool(e2e, "browser_save_pdf", { tabId, path });
      failed(await call("/etc/page.pdf"), { status: 422, code: "FILE_NOT_ALLOWED" });
      failed(await call(join(dir, "page.txt")), {
        status: 422,
        code: "FILE_NOT_ALLOWED",
        message: /ending in \.pdf/,
      });
      assert(!(await Deno.stat(join(dir, "page.txt")).then(() => true, () => false)));
    });

    await t.step(
      "a path where a file exists is refused (pick a new name); the file is kept",
      async () => {
        const path = join(dir, "page.pdf");
        const before = await Deno.readFile(path);
        failed(await callTool(e2e, "browser_save_pdf", { tabId, path }), {
          status: 422,
          code: "FILE_NOT_ALLOWED",
          message: /already exists.*pick a new name/,
        });
        assertEquals(await Deno.readFile(path), before);
      },
    );

    await t.step(
      "a PDF over the inline bound is FILE_TOO_LARGE, read from the stream",
      async () => {
        const heavy = await e2e.open("/files/heavy");
        try {
          await heavy.waitForFunction("document.getElementById('noise').naturalWidth > 0");
          const heavyTab = await tabIdOf(e2e, heavy);
          failed(await callTool(e2e, "browser_save_pdf", { tabId: heavyTab }), {
            status: 422,
            code: "FILE_TOO_LARGE",
            message: /more than 140000 bytes.*Pass path/,
          });
          // Saved at a path (under the larger bound) it is whole.
          const path = join(dir, "heavy.pdf");
          const value = await answerOf(e2e, heavyTab, { path });
          assert(value.bytes > 140_000, `the heavy PDF is ${value.bytes} bytes`);
          assertEquals((await Deno.readFile(path)).length, value.bytes);
        } finally {
          await heavy.close();
        }
      },
    );
  } finally {
    await page.close();
  }
}

async function answerOf(e2e: E2E, tabId: number, args: Record<string, unknown>) {
  const reply = await callTool(e2e, "browser_save_pdf", { tabId, ...args });
  assertEquals(reply.status, 200, JSON.stringify(reply.body).slice(0, 500));
  return JSON.parse(reply.body.content[0].text);
}
