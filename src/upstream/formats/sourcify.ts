import Type from 'typebox';

/**
 * Sourcify APIv2 `GET /v2/contract/<chainId>/<address>?fields=abi,compilation,sources,proxyResolution`: a verified
 * contract (`match` is `match` or `exact_match`) with the fields asked for. An unverified contract answers 404 with
 * `match: null`. `proxyResolution` is Sourcify's own proxy detection (type and implementations).
 */
export const SourcifyContract = Type.Object({
  match: Type.Union([Type.String(), Type.Null()]),
  abi: Type.Optional(
    Type.Array(
      Type.Object({
        type: Type.Optional(Type.String()),
        name: Type.Optional(Type.String()),
        stateMutability: Type.Optional(Type.String()),
      }),
    ),
  ),
  compilation: Type.Optional(
    Type.Object({
      /** `Solidity` or `Vyper`. */
      language: Type.Optional(Type.String()),
      compilerVersion: Type.Optional(Type.String()),
      name: Type.Optional(Type.String()),
      /** `path/to/File.sol:ContractName`: the file holding the contract. */
      fullyQualifiedName: Type.Optional(Type.String()),
    }),
  ),
  sources: Type.Optional(Type.Record(Type.String(), Type.Object({ content: Type.String() }))),
  proxyResolution: Type.Optional(
    Type.Object({
      isProxy: Type.Optional(Type.Boolean()),
      proxyType: Type.Optional(Type.Union([Type.String(), Type.Null()])),
      implementations: Type.Optional(Type.Array(Type.Object({ address: Type.String() }))),
    }),
  ),
});
export type SourcifyContract = Type.Static<typeof SourcifyContract>;
