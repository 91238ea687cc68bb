/// <reference lib="deno.ns" />
/**
 * The extension's icon, drawn in code so no binary source sits in the repository: a blue rounded
 * square with a white hub (a ring and its centre). `pngIcon(size)` returns the PNG bytes; the
 * build writes one per size in `EXTENSION_ICON_SIZES`.
 */
import { deflateSync } from "node:zlib";
import { concatBytes } from "../protocol/bytes.ts";

const BLUE = [26, 115, 232];
const WHITE = [255, 255, 255];
/** Supersampling per axis, for smooth edges. */
const SAMPLES = 4;

/** Coverage of the shapes at one point of the unit square: [background, white]. */
function shapesAt(x: number, y: number): [boolean, boolean] {
  const r = 0.22; // corner radius of the square
  const cx = Math.min(Math.max(x, r), 1 - r);
  const cy = Math.min(Math.max(y, r), 1 - r);
  const inSquare = (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
  const d = Math.hypot(x - 0.5, y - 0.5);
  const white = (d >= 0.24 && d <= 0.34) || d <= 0.11;
  return [inSquare, inSquare && white];
}

function pixel(size: number, px: number, py: number): number[] {
  let bg = 0;
  let fg = 0;
  for (let sy = 0; sy < SAMPLES; sy++) {
    for (let sx = 0; sx < SAMPLES; sx++) {
      const [b, w] = shapesAt(
        (px + (sx + 0.5) / SAMPLES) / size,
        (py + (sy + 0.5) / SAMPLES) / size,
      );
      if (b) bg++;
      if (w) fg++;
    }
  }
  const total = SAMPLES * SAMPLES;
  if (bg === 0) return [0, 0, 0, 0];
  const t = fg / bg;
  const rgb = BLUE.map((c, i) => Math.round(c + (WHITE[i] - c) * t));
  return [...rgb, Math.round((255 * bg) / total)];
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(new TextEncoder().encode(type), 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

/** The icon as PNG bytes (8-bit RGBA). */
export function pngIcon(size: number): Uint8Array {
  const raw = new Uint8Array(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) {
    raw[y * (size * 4 + 1)] = 0; // filter: none
    for (let x = 0; x < size; x++) raw.set(pixel(size, x, y), y * (size * 4 + 1) + 1 + x * 4);
  }
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, size);
  view.setUint32(4, size);
  header.set([8, 6, 0, 0, 0], 8); // 8-bit, RGBA, deflate, no filter, no interlace
  const parts = [
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", new Uint8Array(deflateSync(raw, { level: 9 }))),
    chunk("IEND", new Uint8Array()),
  ];
  return concatBytes(parts);
}
