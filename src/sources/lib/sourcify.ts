import type { HostHttp } from '../../upstream/client.js';
import { noData, UpstreamError } from '../../upstream/errors.js';
import type { HostName } from '../../upstream/hosts.js';
import { SourcifyContract } from '../../upstream/formats/sourcify.js';
import type { Row } from '../define.js';
import { scored, sourceChecks, SOURCE_TEXT_CHECKS, type Source } from './contract-source.js';
import type { EvmTarget } from './evm-chains.js';
import { onchainFacts, type OnchainFacts } from './onchain.js';

const FIELDS = 'abi,compilation,sources,proxyResolution';
const SPDX = /SPDX-License-Identifier:\s*([^\s*]+)/;

/** Sourcify's record of the contract, or null when Sourcify has not verified it (its 404 with `match: null`). */
async function sourcifyContract(http: HostHttp, { chainId, address }: EvmTarget, deadline: number): Promise<SourcifyContract | null> {
  try {
    const path = `/v2/contract/${chainId}/${address}`;
    const contract = await http.json<SourcifyContract>(path, SourcifyContract, { deadline, query: { fields: FIELDS } });
    return contract.match === null ? null : contract;
  } catch (e) {
    if (e instanceof UpstreamError && e.info.status === 404) return null;
    throw e;
  }
}

/** Sourcify names the language apart (`Vyper`, `0.3.10+commit.91361694`); Etherscan writes `vyper:0.3.10`. */
function etherscanCompilerVersion(compilation: SourcifyContract['compilation']): string {
  const version = compilation?.compilerVersion ?? '';
  return compilation?.language === 'Vyper' && version ? `vyper:${version.split('+')[0]}` : version;
}

/** A verified Sourcify record in the shape of an Etherscan source record, so one set of source checks reads both. */
export function asSource(c: SourcifyContract, proxy: boolean | null, implementation: string | null): Source {
  const files = c.sources ?? {};
  const main = files[c.compilation?.fullyQualifiedName?.split(':')[0] ?? ''] ?? Object.values(files)[0];
  return {
    SourceCode: Object.values(files)
      .map((f) => f.content)
      .join('\n'),
    ABI: JSON.stringify(c.abi ?? []),
    ContractName: c.compilation?.name ?? '',
    CompilerVersion: etherscanCompilerVersion(c.compilation),
    LicenseType: SPDX.exec(main?.content ?? '')?.[1] ?? '',
    Proxy: proxy ? '1' : '0',
    Implementation: implementation ?? '',
  };
}

/**
 * The row from Sourcify (verified source, ABI, compiler, its proxy detection) and the node's facts (code, proxy slots,
 * owner). A contract Sourcify has not verified may still be verified elsewhere: its source checks are unknown, not risks.
 */
export function fromSourcify(target: EvmTarget, contract: SourcifyContract | null, facts: OnchainFacts | null): Row {
  const resolution = contract?.proxyResolution;
  const proxy = facts?.is_proxy || resolution?.isProxy ? true : (resolution?.isProxy ?? facts?.is_proxy ?? null);
  const implementation = resolution?.implementations?.[0]?.address.toLowerCase() ?? facts?.implementation ?? null;
  const source = contract ? asSource(contract, proxy, implementation) : null;
  // Sourcify matched the deployed bytecode to its source: verified, even if it sent no source text along.
  const checks = source ? sourceChecks(source) : null;
  const risks = checks ? checks.risks.filter((r) => r !== 'unverified_source') : proxy ? ['proxy'] : [];
  const unknown = !source ? ['unverified_source', ...SOURCE_TEXT_CHECKS, 'old_compiler'] : source.SourceCode ? [] : [...SOURCE_TEXT_CHECKS];
  return {
    chain: target.chain,
    address: target.address,
    contract_name: contract?.compilation?.name ?? null,
    verified: contract ? true : null,
    is_proxy: proxy,
    implementation,
    compiler_version: contract?.compilation?.compilerVersion ?? null,
    license: source?.LicenseType || null,
    owner: facts?.owner ?? null,
    risky_functions: checks?.risky_functions ?? null,
    ...scored(risks, proxy === null ? [...unknown, 'proxy'] : unknown),
  };
}

/** Ethereum has a keyless public node here; other chains get Sourcify's word alone. */
const RPC: Partial<Record<EvmTarget['chain'], HostName>> = { ethereum: 'eth-rpc' };

/** Keyless contract risk: Sourcify and, where there is one, a public node. An address with no code is no contract. */
export async function sourcifyRisk(
  http: HostHttp,
  upstream: (name: HostName) => HostHttp,
  target: EvmTarget,
  deadline: number,
): Promise<Row> {
  const rpc = RPC[target.chain];
  const [contract, facts] = await Promise.all([
    sourcifyContract(http, target, deadline),
    // The node only adds detail: without it the row says what Sourcify knows.
    rpc ? onchainFacts(upstream(rpc), target.address, deadline).catch(() => null) : null,
  ]);
  if (facts && !facts.has_code) throw noData(`${target.address} holds no contract code on ${target.chain}`);
  if (!contract && !facts) throw noData(`Sourcify has not verified ${target.address} and no public node told anything about it`);
  return fromSourcify(target, contract, facts);
}
