/**
 * A type's description without the q shape it starts with (`` `<ticker>`; … `` or `empty; …`): the shape is shown
 * apart, so the reader gets what the data is.
 */
export function plainDesc(desc: string): string {
  const shape = /^(`[^`]*`[^;]*; |`[^`]*`\s*|empty; )/.exec(desc)?.[0] ?? '';
  const text = desc.slice(shape.length);
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
