import { readFileSync } from 'node:fs';
import { InvalidArgumentError, type Command } from 'commander';
import { privateKeyToAccount } from 'viem/accounts';
import type { Hex } from 'viem';
import { createClient, type SvcClient } from './client.js';

/** Exit codes scripts can rely on (also in the README). */
export const EXIT = { ok: 0, invalid: 1, usage: 2, http: 3, payment: 4, network: 5 } as const;

export class CliFailure extends Error {
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message);
  }
}

export interface GlobalOptions {
  baseUrl: string;
  json?: boolean;
  walletFile?: string;
  maxPayment: number;
  maxSession: number;
}

export const usd = (value: string) => {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new InvalidArgumentError('expected an amount in USD, e.g. 0.5');
  return n;
};
export const integer = (value: string) => {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('expected a non-negative integer');
  return Number(value);
};
/** Unix seconds, or an ISO 8601 date. */
export const time = (value: string) => {
  if (/^\d+$/.test(value)) return Number(value);
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw new InvalidArgumentError('expected Unix seconds or an ISO 8601 date');
  return Math.floor(ms / 1000);
};

/** The wallet key comes from SVC_WALLET_KEY or a file, never from an argument (it would land in shell history and ps). */
function walletKey(opts: GlobalOptions): Hex | undefined {
  const raw = opts.walletFile ? readFileSync(opts.walletFile, 'utf8') : process.env.SVC_WALLET_KEY;
  if (!raw) return undefined;
  const key = raw.trim();
  if (!/^0x[0-9a-fA-F]{64}$/.test(key))
    throw new CliFailure(
      `the wallet key${opts.walletFile ? ` in ${opts.walletFile}` : ' in SVC_WALLET_KEY'} is not a 0x-prefixed 32-byte hex private key`,
      EXIT.usage,
    );
  return key as Hex;
}

export function clientFor(opts: GlobalOptions): SvcClient {
  const key = walletKey(opts);
  return createClient({
    baseUrl: opts.baseUrl,
    ...(key ? { wallet: privateKeyToAccount(key) } : {}),
    ...(process.env.SVC_PASS ? { passToken: process.env.SVC_PASS } : {}),
    ...(process.env.SVC_API_KEY ? { apiKey: process.env.SVC_API_KEY } : {}),
    maxPaymentUsd: opts.maxPayment,
    maxSessionUsd: opts.maxSession,
  });
}

export function readJsonFile(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new CliFailure(`${path}: ${(error as Error).message}`, EXIT.usage);
  }
}

/** What every command module gets from the program: options, output, and a client call behind a spinner. */
export interface CliContext {
  program: Command;
  globals: () => GlobalOptions;
  out: (text: string) => void;
  /** Prints `body` as JSON with --json, else with the given human renderer. */
  show: <T>(body: T, human: (body: T) => string) => void;
  call: <T>(label: string, task: (client: SvcClient) => Promise<T>) => Promise<T>;
}
