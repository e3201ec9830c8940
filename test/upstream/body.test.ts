import { describe, expect, it } from 'vitest';
import { declaredCharset, decodeBody } from '../../src/upstream/body.js';

const latin1 = (text: string) => Buffer.from(text, 'latin1');

describe('response charset', () => {
  it('decodes by the Content-Type charset, else by the XML declaration, else as UTF-8', () => {
    const feed = latin1('<?xml version="1.0" encoding="ISO-8859-1" ?><feed><title>SOCIÉTÉ GÉNÉRALE</title></feed>');
    expect(decodeBody(feed, 'application/atom+xml')).toContain('SOCIÉTÉ GÉNÉRALE');
    expect(decodeBody(latin1('Zürich'), 'text/csv; charset="iso-8859-1"')).toBe('Zürich');
    expect(decodeBody(Buffer.from('Zürich'), 'application/json')).toBe('Zürich');
    expect(decodeBody(Buffer.from('Zürich'))).toBe('Zürich');
  });

  it('lets the header win over the declaration and falls back to UTF-8 for labels it does not know', () => {
    const utf8Feed = Buffer.from('<?xml version="1.0" encoding="ISO-8859-1"?><t>é</t>');
    expect(declaredCharset(utf8Feed, 'text/xml; charset=utf-8')).toBe('utf-8');
    expect(declaredCharset(utf8Feed, undefined)).toBe('windows-1252');
    expect(declaredCharset(Buffer.from('x'), 'text/plain; charset=klingon')).toBe('utf-8');
  });
});
