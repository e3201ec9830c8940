/** Base64 without `Buffer`, so the SDK runs unchanged in browsers and edge runtimes. */

export function base64Encode(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

export const base64UrlEncode = (bytes: Uint8Array): string =>
  base64Encode(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

/** Standard or URL-safe alphabet, padded or not. */
export function base64Decode(text: string): Uint8Array<ArrayBuffer> {
  const standard = text.trim().replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(standard.padEnd(Math.ceil(standard.length / 4) * 4, '='));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

export const utf8Encode = (text: string): Uint8Array<ArrayBuffer> => new TextEncoder().encode(text);
export const utf8Decode = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);
