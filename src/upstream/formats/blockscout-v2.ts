import Type from 'typebox';

const Party = Type.Object({ hash: Type.String() });
const NullableString = Type.Union([Type.String(), Type.Null()]);

/** Blockscout v2 token transfer; `token.address` is `address_hash` on newer versions. */
export const TokenTransfer = Type.Object({
  transaction_hash: Type.String(),
  // Documented examples show log_index both as a number and as text, and timestamp null before indexing.
  log_index: Type.Union([Type.Integer(), Type.String()]),
  timestamp: NullableString,
  from: Party,
  to: Party,
  token: Type.Object({
    address: Type.Optional(Type.String()),
    address_hash: Type.Optional(Type.String()),
    symbol: NullableString,
    decimals: NullableString,
    exchange_rate: NullableString,
    type: Type.String(),
  }),
  total: Type.Object({ value: Type.Optional(Type.String()) }),
});
export type TokenTransfer = Type.Static<typeof TokenTransfer>;
export const TransferPage = Type.Object({ items: Type.Array(TokenTransfer) });
export type TransferPage = Type.Static<typeof TransferPage>;

/** Native-coin transactions; `exchange_rate` is the coin's USD price, `to` is null for contract creation. */
export const Tx = Type.Object({
  hash: Type.String(),
  timestamp: NullableString,
  from: Party,
  to: Type.Union([Party, Type.Null()]),
  value: Type.String(),
  exchange_rate: NullableString,
  status: NullableString,
});
export type Tx = Type.Static<typeof Tx>;
export const TxPage = Type.Object({ items: Type.Array(Tx) });
export type TxPage = Type.Static<typeof TxPage>;
