/**
 * The floor of a large response on loopback, for the performance table: a bare `Deno.serve` that
 * reads each request's body and answers with the bytes of a file and one content type, as the hub
 * answered the same request (e.g. `tools/list` of 2,000 tools).
 * Run: `deno run --allow-net --allow-read bench/_bare_bytes.ts <file> <content-type>`; it prints
 * `listening <port>`.
 */
const [file, contentType] = Deno.args;
const bytes = await Deno.readFile(file);

const server = Deno.serve(
  { hostname: "127.0.0.1", port: 0, onListen: ({ port }) => console.log(`listening ${port}`) },
  async (req) => {
    await req.arrayBuffer();
    return new Response(bytes, { headers: { "content-type": contentType } });
  },
);
await server.finished;
