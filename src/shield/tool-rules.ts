import type { AuditedTool } from './manifest.js';
import { plain, skeleton } from './lookalike.js';
import type { ToolFinding, ToolSeverity } from './schemas.js';

interface TextRule {
  id: string;
  severity: ToolSeverity;
  pattern: RegExp;
}

/** Instructions aimed at the model hidden in text a model reads, most severe first. */
export const INSTRUCTION_RULES: TextRule[] = [
  {
    id: 'prompt_override',
    severity: 'critical',
    pattern:
      /\b(ignore|disregard|forget|override)\b[^.\n]{0,30}\b(previous|prior|above|earlier|all|other|system)\b[^.\n]{0,20}\b(instructions?|prompts?|rules|guidelines)/i,
  },
  {
    id: 'secret_request',
    severity: 'critical',
    pattern:
      /\b(read|send|include|pass|upload|cat|open|provide|paste|attach|copy)\b[^\n]{0,60}?(~\/\.ssh|id_rsa|\.env\b|\.aws|credentials|mcp\.json|private[ _]key|seed phrase|mnemonic|api[ _-]?keys?|passwords?|secrets?|(access|auth|session|bearer|refresh) tokens?)/i,
  },
  {
    id: 'conceal_from_user',
    severity: 'high',
    pattern:
      /\b(do not|don't|never|without)\b[^.\n]{0,20}\b(tell|mention|inform|reveal|show|notify|telling|informing)\w*\b[^.\n]{0,60}\b(user|human|operator)/i,
  },
  {
    id: 'cross_tool_instruction',
    severity: 'high',
    pattern:
      /\b(before|after|instead of)\b[^.\n]{0,20}\b(using|calling|invoking)\b[^.\n]{0,30}\btool|\b(call|invoke|use|run)\s+(the\s+)?[`'"]?[a-z][a-z0-9_.-]*[`'"]?\s+tool\b/i,
  },
  {
    id: 'model_directed_imperative',
    severity: 'medium',
    pattern:
      /<\s*\/?\s*(important|system|instructions?|secret)\s*>|\byou (must|should|will) (always|never|first|immediately)\b|\b(as an ai|system prompt|language model)\b/i,
  },
];

/** Unicode tag characters: invisible, and able to spell out a whole hidden ASCII message. */
const TAGS = /[\u{E0000}-\u{E007F}]/gu;
/** Zero-width characters, bidi controls, the soft hyphen and the BOM: invisible or reordering text. */
const INVISIBLE = /[\u00AD\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/gu;

/** Well-known tool names of popular MCP servers and agent runtimes (filesystem, shell, git, browser, fetch, mail). */
export const WELL_KNOWN_TOOLS = [
  'read_file',
  'write_file',
  'edit_file',
  'list_directory',
  'create_directory',
  'move_file',
  'search_files',
  'get_file_info',
  'read_multiple_files',
  'execute_command',
  'run_command',
  'run_terminal_cmd',
  'bash',
  'shell',
  'terminal',
  'python',
  'fetch',
  'web_search',
  'search',
  'browser_navigate',
  'browser_click',
  'send_email',
  'send_message',
  'git_commit',
  'git_push',
  'create_issue',
  'create_pull_request',
  'query',
  'sql_query',
  'memory',
];
const KNOWN_PLAIN = new Map(WELL_KNOWN_TOOLS.map((n) => [plain(n), n]));
const KNOWN_SKELETON = new Map(WELL_KNOWN_TOOLS.map((n) => [skeleton(n), n]));

/** Capabilities that act on the world; each needs a confirmation hint (description or readOnlyHint). */
export const CAPABILITIES: { id: string; severity: ToolSeverity; pattern: RegExp }[] = [
  { id: 'shell', severity: 'high', pattern: /\b(shell|bash|exec(ute)?s?|commands?|terminal|subprocess|eval)\b/i },
  {
    id: 'payments',
    severity: 'high',
    pattern:
      /\b(pay|payments?|transfer (funds|tokens|money)|send (funds|money|tokens|eth|usdc)|withdraw\w*|sign\w* (a )?transactions?|purchase\w*)\b/i,
  },
  {
    id: 'filesystem',
    severity: 'medium',
    pattern: /\b(write|delete|remove|overwrite|modify|move)s?\b[^.\n]{0,20}\b(files?|director(y|ies)|folders?)\b|\bfile ?system\b/i,
  },
  {
    id: 'network',
    severity: 'medium',
    pattern: /\b(arbitrary|any) (url|urls|hosts?|websites?|endpoints?)\b|\bhttp requests?\b|\bfetch\w* (a |any )?url/i,
  },
];
const CONFIRMATION = /\b(confirm\w*|approv\w*|human[- ]in[- ]the[- ]loop|ask(s)? the user|user consent|dry[- ]run)\b/i;

const SECRET_FIELD =
  /(password|passwd|secret|api[_-]?key|apikey|access[_-]?token|auth[_-]?token|bearer|private[_-]?key|mnemonic|seed[_-]?phrase|credential|ssh[_-]?key|otp\b|cvv|card[_-]?number)/i;
const WALLET_SECRET = /(private[_-]?key|mnemonic|seed[_-]?phrase)/i;

const HIDDEN = /[\p{Cc}\u00AD\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\u{E0000}-\u{E007F}]/gu;

/** A short excerpt around a match, invisible and control characters shown as \u{…}. */
export function excerpt(text: string, index = 0, length = 0): string {
  const slice = text.slice(Math.max(0, index - 60), index + length + 60).replace(/\n/g, ' ');
  return slice.replace(HIDDEN, (c) => `\\u{${c.codePointAt(0)!.toString(16)}}`).slice(0, 400);
}

const allTexts = (tool: AuditedTool) => [tool.name, tool.description, ...tool.texts, ...tool.fields];

/** Tag characters mirror ASCII at U+E0000: decoding them shows the hidden message ('' when there is none). */
export const hiddenMessage = (text: string): string =>
  (text.match(TAGS) ?? []).map((c) => String.fromCodePoint(c.codePointAt(0)! - 0xe0000)).join('');

function instructionFindings(tool: AuditedTool): ToolFinding[] {
  // The visible text (invisible characters cannot split a phrase to dodge a rule) and any message hidden in tag characters.
  const texts = [tool.description, ...tool.texts].flatMap((text) => [text.replace(TAGS, '').replace(INVISIBLE, ''), hiddenMessage(text)]);
  return INSTRUCTION_RULES.flatMap((rule) => {
    for (const text of texts) {
      const m = rule.pattern.exec(text);
      if (m) return [{ id: rule.id, severity: rule.severity, evidence: excerpt(text, m.index, m[0].length) }];
    }
    return [];
  });
}

function unicodeFindings(tool: AuditedTool): ToolFinding[] {
  const text = allTexts(tool).join('\n');
  const findings: ToolFinding[] = [];
  const hidden = hiddenMessage(text);
  if (hidden)
    findings.push({
      id: 'invisible_unicode',
      severity: 'critical',
      evidence: `Unicode tag characters spelling: "${hidden.slice(0, 300)}"`,
    });
  const invisible = new RegExp(INVISIBLE.source, 'u').exec(text);
  if (invisible)
    findings.push({
      id: 'invisible_unicode',
      severity: 'high',
      evidence: `U+${invisible[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')} in: ${excerpt(text, invisible.index, 1)}`,
    });
  if (/[^\p{ASCII}]/u.test(tool.name) && /[a-z]/i.test(tool.name))
    findings.push({ id: 'confusable_name', severity: 'high', evidence: `non-ASCII characters in the tool name: ${excerpt(tool.name)}` });
  return findings;
}

function shadowFindings(tool: AuditedTool): ToolFinding[] {
  const exact = KNOWN_PLAIN.get(plain(tool.name));
  if (exact && /^[\x20-\x7E]+$/.test(tool.name))
    return [{ id: 'shadows_known_tool', severity: 'medium', evidence: `"${tool.name}" has the name of the well-known tool ${exact}` }];
  const lookalike = KNOWN_SKELETON.get(skeleton(tool.name));
  return lookalike
    ? [{ id: 'shadows_known_tool', severity: 'high', evidence: `"${excerpt(tool.name)}" looks like the well-known tool ${lookalike}` }]
    : [];
}

function capabilityFindings(tool: AuditedTool): ToolFinding[] {
  const text = `${tool.name.replace(/[_-]/g, ' ')}\n${tool.description}`;
  if (tool.annotations.readOnlyHint === true || CONFIRMATION.test(text)) return [];
  return CAPABILITIES.filter((c) => c.pattern.test(text)).map((c) => ({
    id: 'broad_capability',
    severity: c.severity,
    evidence: `${c.id} capability without a confirmation hint (no readOnlyHint, no mention of confirmation): ${excerpt(text, text.search(c.pattern), 20)}`,
  }));
}

function secretFieldFindings(tool: AuditedTool): ToolFinding[] {
  return tool.fields
    .filter((f) => SECRET_FIELD.test(f))
    .slice(0, 5)
    .map((f) => ({
      id: 'secret_field',
      severity: WALLET_SECRET.test(f) ? 'critical' : 'high',
      evidence: `input field "${f}" asks for a secret`,
    }));
}

/** Every finding for one tool. */
export const auditTool = (tool: AuditedTool): ToolFinding[] => [
  ...instructionFindings(tool),
  ...unicodeFindings(tool),
  ...shadowFindings(tool),
  ...capabilityFindings(tool),
  ...secretFieldFindings(tool),
];
