import type { LanguageModel } from 'ai';
import { createOpenAI } from '@ai-sdk/openai';
import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { wireOf, type ModelSpec } from './config.js';

/**
 * One Vercel AI SDK provider per wire format. OpenAI and every OpenAI-compatible server go through
 * the chat-completions endpoint (`.chat`), the one all of them implement; Anthropic speaks Messages,
 * Google speaks generateContent. Local servers without a key get a placeholder (the SDK insists on one).
 */
export function languageModel(spec: ModelSpec): LanguageModel {
  const apiKey = spec.apiKey ?? 'no-key';
  switch (wireOf(spec.vendor)) {
    case 'anthropic-messages':
      return createAnthropic({ baseURL: spec.baseUrl, apiKey })(spec.model);
    case 'gemini':
      return createGoogleGenerativeAI({ baseURL: spec.baseUrl, apiKey })(spec.model);
    case 'openai-chat':
      return createOpenAI({ baseURL: spec.baseUrl, apiKey, name: spec.vendor }).chat(spec.model);
  }
}
