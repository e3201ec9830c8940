/** Prompts for common goals: each is a short plan that uses the tools and resources in order. */
interface Prompt {
  name: string;
  title: string;
  description: string;
  arguments?: { name: string; description: string; required: boolean }[];
  render: (args: Record<string, string>) => string;
}

export const PROMPTS: Prompt[] = [
  {
    name: 'check_asset',
    title: 'Check an asset before acting',
    description: 'Price, context and a decision recipe for one coin or stock, with verified sources',
    arguments: [{ name: 'asset', description: 'a coin, ticker or company name, e.g. ETH or Apple', required: true }],
    render: ({ asset }) =>
      `Check ${asset} before acting.
1. Call resolve_entity with q="${asset}" and take the best match's id.
2. Call query with type crypto-price (coins) or stock-quote (stocks) and entity=<that id>.
3. Call agent_context with goal="should I buy ${asset}" and entity=<that id> (free=1 if no payment is configured).
4. Call verify_receipt on one answer (receipt and response).
Answer with the price, the recipe's verdict and each figure's source and as_of.`,
  },
  {
    name: 'research_topic',
    title: 'Brief on a topic from several data types',
    description: 'Pick the relevant data types from the catalog and fetch them in one bundle',
    arguments: [{ name: 'topic', description: 'what to brief on, e.g. "Ethereum gas and DeFi yields"', required: true }],
    render: ({ topic }) =>
      `Brief me on: ${topic}.
1. Read the resource svc://catalog and pick at most 5 data types that bear on the topic, each with a q in its q shape.
2. Call bundle with those queries and free=true (one row each, no cost); call query for any type you need in full.
3. Summarize in a few bullet points, citing each row's source and as_of; say which queries failed and why.`,
  },
  {
    name: 'verify_answer',
    title: 'Verify a signed answer',
    description: 'Check that a response from svc is authentic and unmodified',
    arguments: [{ name: 'response', description: 'the JSON response, including its _receipt', required: true }],
    render: ({ response }) =>
      `Verify this svc response:
${response}
Call verify_receipt with receipt=<its _receipt> and response=<the whole response>. Report valid or the reason, the key id (kid), issued_at and as_of.`,
  },
];
