import { describe, expect, it } from 'vitest';
import { parseReportPage, submittedAt, toRows, type Report } from '../../src/sources/breach.js';
import { usState } from '../../src/sources/lib/us-states.js';

const page = (titles: string[], rows: string[][]) =>
  `<html><body><form id="ocrForm"><div id="ocrForm:reportResultTable" class="ui-datatable"><table role="grid"><thead id="ocrForm:reportResultTable_head"><tr>${titles
    .map((t) => `<th role="columnheader"><span class="ui-column-title">${t}</span><span class="ui-sortable-column-icon"></span></th>`)
    .join('')}</tr></thead><tbody id="ocrForm:reportResultTable_data">${rows
    .map((r, i) => `<tr data-ri="${i}" role="row">${r.map((c) => `<td role="gridcell">${c}</td>`).join('')}</tr>`)
    .join('')}</tbody></table></div></form></body></html>`;
const TITLES = [
  'Expand All',
  'Name of Covered Entity',
  'State',
  'Covered Entity Type',
  'Individuals Affected',
  'Breach Submission Date',
  'Type of Breach',
  'Location of Breached Information',
];
const report = (entity: string, state: string, submitted: string, individuals = '1,000'): Report => ({
  entity,
  state,
  entity_type: 'Health Plan',
  individuals_affected: individuals,
  submitted,
  breach_type: 'Theft',
  location: 'Laptop',
  business_associate: null,
});

describe('breach q', () => {
  it('reads state names in any case or spacing, USPS codes, DC and territories', () => {
    expect(
      ['California', 'new  york', 'NORTH-CAROLINA', 'tx', 'District of Columbia', 'Washington, D.C.', 'puerto rico', 'Virgin Islands'].map(
        (q) => usState(q).code,
      ),
    ).toEqual(['CA', 'NY', 'NC', 'TX', 'DC', 'DC', 'PR', 'VI']);
  });
  it('refuses what is not a US state', () => {
    for (const q of ['', 'Ontario', 'XX', 'Californ1a', 'CA,NY']) expect(() => usState(q), q).toThrow(/us_state_name/);
  });
});

describe('breach report page', () => {
  it('maps cells by column title, whatever the column order, and joins <br>-separated values', async () => {
    const titles = [
      'Expand All',
      'State',
      'Name of Covered Entity',
      'Breach Submission Date',
      'Individuals Affected',
      'Type of Breach',
      'Business Associate Present',
    ];
    const [r] = await parseReportPage(page(titles, [['', 'OR', 'Mercy &amp; Co', '01/02/2026', '12,500', 'Theft<br />Loss', 'Yes']]));
    expect(r).toEqual({
      entity: 'Mercy & Co',
      state: 'OR',
      entity_type: null,
      individuals_affected: '12,500',
      submitted: '01/02/2026',
      breach_type: 'Theft, Loss',
      location: null,
      business_associate: 'Yes',
    });
  });
  it('reads the empty-table row as no reports', async () => {
    const html = page(TITLES, []).replace(
      '</tbody>',
      '<tr class="ui-datatable-empty-message"><td colspan="8">No records found.</td></tr></tbody>',
    );
    expect(await parseReportPage(html)).toEqual([]);
  });
  it('refuses a page without the report table or its key columns', async () => {
    await expect(parseReportPage('<html><body><form id="ocrForm">View HIPAA Breach Reports</form></body></html>')).rejects.toThrow(
      /without the breach report table/,
    );
    await expect(parseReportPage(page(['Name of Covered Entity', 'State'], [['A', 'CA']]))).rejects.toThrow(
      /without the breach report table/,
    );
  });
});

describe('breach rows', () => {
  it('parses MM/DD/YYYY as midnight UTC and nothing else', () => {
    expect(submittedAt('11/03/2026')).toBe(Date.UTC(2026, 10, 3) / 1000);
    expect(submittedAt('2026-11-03')).toBeNull();
    expect(submittedAt(null)).toBeNull();
  });
  it("keeps the state's reports, newest first, with counts as integers", () => {
    const rows = toRows(
      [
        report('A', 'CA', '01/05/2026'),
        report('B', 'NV', '03/01/2026'),
        report('C', 'ca', '02/10/2026', '1,234,567'),
        report('D', 'CA', '02/11/2026', 'Unknown'),
      ],
      usState('California'),
    );
    expect(rows.map((r) => [r.entity, r.individuals_affected, r.submitted_at])).toEqual([
      ['D', null, Date.UTC(2026, 1, 11) / 1000],
      ['C', 1234567, Date.UTC(2026, 1, 10) / 1000],
      ['A', 1000, Date.UTC(2026, 0, 5) / 1000],
    ]);
    expect(rows[0]).toMatchObject({ state: 'CA', business_associate: null });
  });
  it('answers no_data when the state has no recent report', () => {
    expect(() => toRows([report('B', 'NV', '03/01/2026')], usState('Alaska'))).toThrow(
      /none of the newest 1 breach reports is from Alaska/,
    );
  });
});
