import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isAddress } from 'viem';
import { loadDataset } from '../../src/entities/dataset.js';
import { cusipCheckDigit, isValidCusip, isValidIsin } from '../../src/entities/identifiers.js';

const dataset = loadDataset();
const count = (type: string) => dataset.entities.filter((e) => e.type === type).length;

describe('entity dataset', () => {
  it('holds 200+ entities of every class', () => {
    expect(dataset.entities.length).toBeGreaterThanOrEqual(200);
    expect(count('crypto')).toBeGreaterThanOrEqual(50);
    expect(count('equity')).toBeGreaterThanOrEqual(50);
    for (const type of ['forex', 'commodity', 'index', 'stablecoin', 'perp']) expect(count(type), type).toBeGreaterThan(5);
  });

  it('every ISIN and CUSIP has a valid check digit, and every ISIN embeds its CUSIP', () => {
    for (const e of dataset.entities.filter((x) => x.type === 'equity')) {
      expect(isValidCusip(e.ids.cusip!), `${e.id} ${e.ids.cusip}`).toBe(true);
      expect(isValidIsin(e.ids.isin!), `${e.id} ${e.ids.isin}`).toBe(true);
      expect(e.ids.isin!.slice(2, 11)).toBe(e.ids.cusip);
    }
  });

  it('every contract address is a well-formed EVM address with a correct EIP-55 checksum', () => {
    for (const e of dataset.entities)
      for (const [chain, address] of Object.entries(e.contracts ?? {})) expect(isAddress(address), `${e.id} ${chain}`).toBe(true);
  });

  it('ids are unique and follow svc-ent:<class>.<slug> with eq for equities', () => {
    expect(new Set(dataset.entities.map((e) => e.id)).size).toBe(dataset.entities.length);
    for (const e of dataset.entities.filter((x) => x.type === 'equity')) expect(e.id).toMatch(/^svc-ent:eq\.[a-z0-9-]+$/);
  });
});

describe('check digits', () => {
  it('known identifiers pass and the check digit is recomputed', () => {
    expect(isValidCusip('037833100')).toBe(true);
    expect(isValidIsin('US0378331005')).toBe(true);
    expect(isValidIsin('GB0002634946')).toBe(true); // BAE Systems
    expect(cusipCheckDigit('02079K30')).toBe('5');
  });

  it('changing any one character of a valid CUSIP or ISIN invalidates it', () => {
    const equities = dataset.entities.filter((x) => x.type === 'equity');
    fc.assert(
      fc.property(fc.constantFrom(...equities), fc.nat(), fc.constantFrom(...'0123456789'), (e, pos, digit) => {
        for (const [id, valid] of [
          [e.ids.cusip!, isValidCusip],
          [e.ids.isin!, isValidIsin],
        ] as const) {
          const i = 2 + (pos % (id.length - 2));
          fc.pre(id[i] !== digit && /\d/.test(id[i]!));
          expect(valid(id.slice(0, i) + digit + id.slice(i + 1))).toBe(false);
        }
      }),
    );
  });
});
