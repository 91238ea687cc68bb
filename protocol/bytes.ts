/** Byte helpers every layer uses. */

/** The parts joined into one array (the part itself when there is only one). */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0];
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** The decoded size of base64 `text` (padded, no whitespace: as CDP and the extension answer). */
export function base64Bytes(text: string): number {
  const padding = text.endsWith("==") ? 2 : text.endsWith("=") ? 1 : 0;
  return Math.floor(text.length / 4) * 3 - padding;
}

/**
 * Base64 `text` decoded; throws when it is not base64. Deno has Uint8Array.fromBase64; Chromium 125
 * (the extension's floor) has not, so there it goes through atob.
 */
export function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  if (typeof Uint8Array.fromBase64 === "function") return Uint8Array.fromBase64(text);
  return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
}

/** `bytes` as base64 (through btoa in chunks where there is no Uint8Array.prototype.toBase64). */
export function toBase64(bytes: Uint8Array): string {
  if (typeof bytes.toBase64 === "function") return bytes.toBase64();
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}
