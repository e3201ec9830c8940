/**
 * One page of an answer a client asked for in pages (`max_tokens`, migration 024): the pages after the first, which
 * the answer itself carried, kept as long as a paid answer is (24 h) so a payer can always read what they paid for.
 */
export interface AnswerPagesTable {
  /** 128 random bits, base64url: the answer's id, in its cursors (`svc-ans:<answer_id>.<page>`). */
  answer_id: string;
  /** 1-based; page 1 is never stored (it was the answer). */
  page: number;
  pages: number;
  /** The page: its value and where it cut the answer (`_page` and `_receipt` are added, and signed, at each read). */
  body_json: string;
  /** The answer's data time and upstreams, for each page's receipt. */
  as_of: number | null;
  sources_json: string;
  /** Unix ms. */
  expires_at: number;
}
