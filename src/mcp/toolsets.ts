import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { recordsSomething, type BuiltTool } from './tools.js';
import { JSON_TEXT_NOTE } from './portable-input.js';
import { DEFAULT_TOOLSETS, TOOLSETS, TOOLSET_WORDS, type Toolset } from '../config-toolsets.js';

/** Which tools a connection gets: toolsets, the dynamic meta-tools, and whether tools that record something are left out. */
export interface ToolSelection {
  toolsets: Toolset[];
  dynamic: boolean;
  readonly: boolean;
}

export const DEFAULT_SELECTION: ToolSelection = { toolsets: [...DEFAULT_TOOLSETS], dynamic: false, readonly: false };

export class UnknownToolset extends Error {
  constructor(readonly word: string) {
    super(`unknown toolset "${word}"; use a comma-separated list of ${TOOLSET_WORDS.join(', ')}`);
  }
}

/** `data,chart` · `all` · `default,portfolio` · `dynamic`; empty or absent = the default toolsets. */
export function parseSelection(toolsets: string | undefined, readonly = false): ToolSelection {
  const words = (toolsets ?? '')
    .split(',')
    .map((w) => w.trim())
    .filter(Boolean);
  if (!words.length) return { ...DEFAULT_SELECTION, readonly };
  const chosen = new Set<Toolset>();
  for (const word of words) {
    if (word === 'all') TOOLSETS.forEach((t) => chosen.add(t));
    else if (word === 'default') DEFAULT_TOOLSETS.forEach((t) => chosen.add(t));
    else if ((TOOLSETS as readonly string[]).includes(word)) chosen.add(word as Toolset);
    else if (word !== 'dynamic') throw new UnknownToolset(word);
  }
  return { toolsets: TOOLSETS.filter((t) => chosen.has(t)), dynamic: words.includes('dynamic'), readonly };
}

/** The tools a selection reaches: those of its toolsets, or all of them through the dynamic meta-tools. */
export function reachable(tools: BuiltTool[], selection: ToolSelection, through: 'list' | 'dynamic'): BuiltTool[] {
  return tools.filter(
    (t) => (through === 'dynamic' || selection.toolsets.includes(t.spec.toolset)) && !(selection.readonly && recordsSomething(t.spec)),
  );
}

const NAME = { type: 'string', description: 'a tool name from list_tools' } as const;

/** The dynamic mode's meta-tools: list what exists, read one tool's full definition, call it. */
export const META_TOOLS: Tool[] = [
  {
    name: 'list_tools',
    title: 'List svc tools',
    description:
      'List every svc tool (name, toolset, one-line purpose, paid or not), optionally of one toolset. Then describe_tool and call_tool.',
    inputSchema: { type: 'object', properties: { toolset: { type: 'string', enum: [...TOOLSETS] } }, additionalProperties: false },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: 'describe_tool',
    title: 'Describe one svc tool',
    description: 'The full definition of one tool: description, input schema and output schema.',
    inputSchema: { type: 'object', properties: { name: NAME }, required: ['name'], additionalProperties: false },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: 'call_tool',
    title: 'Call one svc tool',
    description:
      'Call a tool by name with its arguments (as describe_tool gives them). Its result is returned as is; an x402 payment goes in this call\'s _meta["x402/payment"].',
    inputSchema: {
      type: 'object',
      // JSON text: a closed schema cannot describe every tool's arguments (portable-input.ts).
      properties: { name: NAME, arguments: { type: 'string', description: `${JSON_TEXT_NOTE}: the tool's arguments` } },
      required: ['name'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: false, openWorldHint: true },
  },
];

/** list_tools' entries: enough to choose, not the schemas. */
export const toolSummaries = (tools: BuiltTool[], toolset?: string) =>
  tools
    .filter((t) => !toolset || t.spec.toolset === toolset)
    .map((t) => ({ name: t.spec.name, toolset: t.spec.toolset, title: t.spec.title, description: t.spec.purpose, paid: t.paid }));
