import { ApiError } from '../core/errors.js';
import { randomId } from '../core/ids.js';
import { unixSeconds, type Clock } from '../core/clock.js';
import type { CalibrationService } from '../calib/service.js';
import type { Models } from '../models/index.js';
import type { ConstitutionalRepo } from '../store/repos/constitutional.js';
import { consensus, judge, CONSENSUS_RULE } from './arbitrate.js';
import { canaryWouldLeak, honeypotReply, sha256Hex, CANARY_RULE } from './honeypot.js';
import type { ClassifyContext, Direction } from './pattern-types.js';
import { classifyRules, PATTERNS, THRESHOLDS, type RuleResult } from './rules.js';
import { runSelfJailbreak, type SelfJailbreakReport } from './self-jailbreak.js';

/** The calibration agent of the rule stage; judges are `constitutional:model:<model id>`, the panel `constitutional:panel`. */
export const RULES_AGENT = 'constitutional:rules';
export const PANEL_AGENT = 'constitutional:panel';
/** Every claim is "this text is harmful" with predicted_p = p_harmful; a labelled feedback resolves it. */
export const CLAIM_KIND = 'harmful';
const CLAIM_TTL_HOURS = 24 * 90;
export const MAX_TEXT_BYTES = 65_536;

export interface ClassifyRequest {
  text: string;
  direction: Direction;
  context?: ClassifyContext;
}

export type SelfJailbreakRun = SelfJailbreakReport & { id: string; ran_at: number };

const modelAgent = (modelId: string) => `constitutional:model:${modelId.replace(/[^A-Za-z0-9._@/+-]/g, '-')}`;

export class ConstitutionalService {
  constructor(
    private readonly o: {
      calib: CalibrationService;
      repo: ConstitutionalRepo;
      clock: Clock;
      models: Models;
      canary: string;
    },
  ) {}

  patterns() {
    return PATTERNS.map(({ id, name, direction, description, examples }) => ({ id, name, direction, description, examples }));
  }

  async classify(request: ClassifyRequest) {
    const result = this.rules(request);
    const claim_id = await this.claim(RULES_AGENT, result, request.direction, sha256Hex(request.text));
    return { ...result, claim_id };
  }

  async arbitrate(request: ClassifyRequest) {
    const rules = this.rules(request);
    const models = this.o.models;
    // Arbitration is the panel's judgement: without a panel model it is 503 model_unavailable (classify still screens).
    const panel = models.panel('panel');
    const results = await judge(models, panel, request.text, request.direction, request.context ?? {});
    const hash = sha256Hex(request.text);
    const judges = await Promise.all(
      results.map(async (r) => (r.ok ? { ...r, claim_id: await this.claim(modelAgent(r.model.id), r, request.direction, hash) } : r)),
    );
    const answered = judges.filter((j) => j.ok);
    const agreed = consensus([rules, ...answered]);
    // A consensus no judge took part in is the rule stage's own forecast, already claimed below.
    const claim_id = answered.length ? await this.claim(PANEL_AGENT, agreed, request.direction, hash) : null;
    return {
      ...agreed,
      consensus_rule: CONSENSUS_RULE,
      panel_size: panel.length,
      claim_id,
      rules: {
        verdict: rules.verdict,
        p_harmful: rules.p_harmful,
        patterns: rules.patterns,
        claim_id: await this.claim(RULES_AGENT, rules, request.direction, hash),
      },
      judges: answered,
      failed: judges.filter((j) => !j.ok),
    };
  }

  /** Resolves a constitutional claim with a labelled outcome (harmful = 1), counted as verified. */
  async feedback(claimId: string, label: 'harmful' | 'benign', note?: string) {
    const claim = await this.o.calib.claim(claimId);
    if (!claim.agent_id.startsWith('constitutional:'))
      throw new ApiError('not_found', 'no constitutional claim with this id', { field: 'claim_id' });
    const outcome = label === 'harmful' ? 1 : 0;
    const resolved = await this.o.calib.recordOutcome(claimId, outcome, { label, ...(note ? { note } : {}), by: 'admin' }, 'verified');
    return { ...resolved, agent_id: claim.agent_id, label };
  }

  async honeypot(message: string) {
    const result = this.rules({ text: message, direction: 'input' });
    const wouldLeak = canaryWouldLeak(result);
    const id = randomId('hp_');
    await this.o.repo.recordAttempt(
      {
        id,
        text_hash: sha256Hex(message),
        p_harmful: result.p_harmful,
        verdict: result.verdict,
        canary_would_leak: wouldLeak ? 1 : 0,
        created_at: unixSeconds(this.o.clock),
      },
      result.patterns.map((p) => p.id),
    );
    return { id, reply: honeypotReply(result, this.o.canary) };
  }

  async honeypotStats() {
    return {
      ...(await this.o.repo.honeypotAggregates()),
      canary_fingerprint: sha256Hex(this.o.canary).slice(0, 16),
      canary_rule: CANARY_RULE,
    };
  }

  async runSelfJailbreak(): Promise<SelfJailbreakRun> {
    const report = { id: randomId('sj_'), ran_at: unixSeconds(this.o.clock), ...(await runSelfJailbreak()) };
    await this.o.repo.saveRun(report.id, report.ran_at, report);
    return report;
  }

  async latestSelfJailbreak(): Promise<SelfJailbreakRun> {
    const run = await this.o.repo.latestRun();
    if (!run) throw new ApiError('not_found', 'the self-jailbreak job has not run yet');
    return run.report as SelfJailbreakRun;
  }

  private rules({ text, direction, context }: ClassifyRequest): RuleResult {
    const bytes = Buffer.byteLength(text, 'utf8');
    if (bytes > MAX_TEXT_BYTES)
      throw new ApiError('payload_too_large', `text is ${bytes} bytes; the cap is ${MAX_TEXT_BYTES}`, {
        field: 'text',
        max_bytes: MAX_TEXT_BYTES,
      });
    return classifyRules(text, direction, context);
  }

  private async claim(
    agentId: string,
    vote: { verdict: string; p_harmful: number },
    direction: Direction,
    textHash: string,
  ): Promise<string> {
    const { claim_id } = await this.o.calib.recordClaim({
      agent_id: agentId,
      kind: CLAIM_KIND,
      predicted_p: vote.p_harmful,
      payload: { direction, verdict: vote.verdict, text_sha256: textHash, thresholds: THRESHOLDS },
      outcome_resolver: { type: 'manual', config: {} },
      ttl_hours: CLAIM_TTL_HOURS,
    });
    return claim_id;
  }
}
