import { assertEquals, assertRejects } from "../../tests/helpers/assert.ts";
import { UserError } from "../../core/cli/user_error.ts";
import { buildProgram } from "../program.ts";
import { readStartArgs, runStart } from "./start_args.ts";

/** What commander's `start` action receives for `args`, or undefined when it never runs. */
async function commanderReads(args: string[]): Promise<Record<string, unknown> | undefined> {
  const program = buildProgram();
  program.configureOutput({ writeOut: () => {}, writeErr: () => {} });
  let read: Record<string, unknown> | undefined;
  program.commands.find((c) => c.name() === "start")!.action((_o, cmd) => {
    read = Object.fromEntries(
      Object.entries(cmd.optsWithGlobals()).filter(([, value]) => value !== undefined),
    );
  });
  await program.parseAsync(args, { from: "user" }).catch(() => {});
  return read;
}

const ACCEPTED: string[][] = [
  ["start"],
  ["start", "--port", "9600"],
  ["start", "--port=9600"],
  ["--port", "9600", "start"],
  ["--port=9600", "start", "--dev"],
  ["start", "--background"],
  ["start", "--background", "--dev", "--port", "9600"],
  ["start", "--show-config"],
  ["start", "--stdio"],
  ["start", "--stdio", "--gateway", "--port", "9600"],
  ["start", "--gateway"],
  ["start", "--port", "abc"],
];

const LEFT_TO_COMMANDER: string[][] = [
  [],
  ["status"],
  ["help", "start"],
  ["start", "--help"],
  ["start", "-h"],
  ["start", "-V"],
  ["start", "--port"],
  ["start", "--port="],
  ["start", "--port", "-1"],
  ["start", "--port", "1", "--port", "2"],
  ["start", "--dev", "--dev"],
  ["--dev", "start"],
  ["start", "extra"],
  ["start", "start"],
  ["start", "--"],
  ["start", "--bogus"],
  ["start", "--stdio=yes"],
  ["stop", "start"],
  ["start", "constructor"],
  ["start", "__proto__"],
  ["start", "toString"],
  ["hasOwnProperty", "start"],
];

/** Every line of up to `length` words from `words`. */
function* lines(words: string[], length: number): Generator<string[]> {
  yield [];
  if (length === 0) return;
  for (const line of lines(words, length - 1)) {
    if (line.length === length - 1) { for (const word of words) yield [...line, word]; }
  }
}

Deno.test("readStartArgs reads these plain start lines without commander", () => {
  for (const args of ACCEPTED) {
    assertEquals(readStartArgs(args) !== undefined, true, args.join(" "));
  }
});

Deno.test("every line readStartArgs accepts, commander's start action gets the same way", async () => {
  const words = ["start", "--port", "9", "--port=7", "--background", "--dev", "--stdio"];
  const more = ["--gateway", "--show-config", "-h", "x", "--"];
  let accepted = 0;
  for (const args of [...lines([...words, ...more], 4), ...ACCEPTED]) {
    const read = readStartArgs(args);
    if (read === undefined) continue;
    accepted++;
    assertEquals({ ...read }, await commanderReads(args), args.join(" "));
  }
  assertEquals(accepted > 150, true, `${accepted} lines accepted`);
});

Deno.test("readStartArgs leaves help, typos, repeats and other commands to commander", () => {
  for (const args of LEFT_TO_COMMANDER) {
    assertEquals(readStartArgs(args), undefined, args.join(" ") || "(no arguments)");
  }
});

Deno.test("runStart refuses --gateway without --stdio before it starts anything", async () => {
  await assertRejects(
    () => runStart({ gateway: true }),
    UserError,
    "--gateway only goes with --stdio",
  );
});
