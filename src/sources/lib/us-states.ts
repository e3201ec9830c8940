import { invalidQ } from '../../core/errors.js';
import { whyNot } from './q.js';

/** USPS codes of the 50 states, DC and the inhabited territories, by name. */
export const US_STATES: Readonly<Record<string, string>> = {
  Alabama: 'AL',
  Alaska: 'AK',
  Arizona: 'AZ',
  Arkansas: 'AR',
  California: 'CA',
  Colorado: 'CO',
  Connecticut: 'CT',
  Delaware: 'DE',
  Florida: 'FL',
  Georgia: 'GA',
  Hawaii: 'HI',
  Idaho: 'ID',
  Illinois: 'IL',
  Indiana: 'IN',
  Iowa: 'IA',
  Kansas: 'KS',
  Kentucky: 'KY',
  Louisiana: 'LA',
  Maine: 'ME',
  Maryland: 'MD',
  Massachusetts: 'MA',
  Michigan: 'MI',
  Minnesota: 'MN',
  Mississippi: 'MS',
  Missouri: 'MO',
  Montana: 'MT',
  Nebraska: 'NE',
  Nevada: 'NV',
  'New Hampshire': 'NH',
  'New Jersey': 'NJ',
  'New Mexico': 'NM',
  'New York': 'NY',
  'North Carolina': 'NC',
  'North Dakota': 'ND',
  Ohio: 'OH',
  Oklahoma: 'OK',
  Oregon: 'OR',
  Pennsylvania: 'PA',
  'Rhode Island': 'RI',
  'South Carolina': 'SC',
  'South Dakota': 'SD',
  Tennessee: 'TN',
  Texas: 'TX',
  Utah: 'UT',
  Vermont: 'VT',
  Virginia: 'VA',
  Washington: 'WA',
  'West Virginia': 'WV',
  Wisconsin: 'WI',
  Wyoming: 'WY',
  'District of Columbia': 'DC',
  'Puerto Rico': 'PR',
  Guam: 'GU',
  'U.S. Virgin Islands': 'VI',
  'American Samoa': 'AS',
  'Northern Mariana Islands': 'MP',
};

export interface UsState {
  name: string;
  code: string;
}

const normal = (s: string) => s.toLowerCase().replace(/[^a-z]/g, '');
const BY_NAME = new Map(Object.entries(US_STATES).map(([name, code]) => [normal(name), { name, code }]));
const BY_CODE = new Map(Object.entries(US_STATES).map(([name, code]) => [code, { name, code }]));
BY_NAME.set(normal('Virgin Islands'), BY_CODE.get('VI')!);
BY_NAME.set(normal('Washington DC'), BY_CODE.get('DC')!);

/** A US state or territory by name (any case, spacing or punctuation) or by its two-letter USPS code. */
export function usState(q: string): UsState {
  const hit = BY_NAME.get(normal(q)) ?? BY_CODE.get(q.trim().toUpperCase());
  if (!hit) {
    throw invalidQ('<us_state_name>: a US state, DC or territory by name (or its USPS code)', 'California', whyNot(q, 'a US state'));
  }
  return hit;
}
