import type { LanguageModel } from 'ai';
import { importOnce } from '../core/import-once.js';
import { wireOf, type ModelSpec } from '../config-models.js';

const loadOpenAI = importOnce(() => import('@ai-sdk/openai'));
const loadAnthropic = importOnce(() => import('@ai-sdk/anthropic'));
const loadGoogle = importOnce(() => import('@ai-sdk/google'));

/**
 * One Vercel AI SDK provider per wire format. OpenAI and every OpenAI-compatible server go through
 * the chat-completions endpoint (`.chat`), the one all of them implement; Anthropic speaks Messages,
 * Google speaks generateContent. Local servers without a key get a placeholder (the SDK insists on one).
 */
export async function languageModel(spec: ModelSpec): Promise<LanguageModel> {
  const apiKey = spec.apiKey ?? 'no-key';
  switch (wireOf(spec.vendor)) {
    case 'anthropic-messages':
      return (await loadAnthropic()).createAnthropic({ baseURL: spec.baseUrl, apiKey })(spec.model);
    case 'gemini':
      return (await loadGoogle()).createGoogleGenerativeAI({ baseURL: spec.baseUrl, apiKey })(spec.model);
    case 'openai-chat':
      return (await loadOpenAI()).createOpenAI({ baseURL: spec.baseUrl, apiKey, name: spec.vendor }).chat(spec.model);
  }
}
