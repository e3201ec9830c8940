import Type from 'typebox';

const Status = Type.Object({
  period: Type.Optional(Type.Number()),
  displayClock: Type.Optional(Type.String()),
  type: Type.Object({ state: Type.String(), shortDetail: Type.Optional(Type.String()), detail: Type.Optional(Type.String()) }),
});
/** ESPN site API `/apis/site/v2/sports/<sport>/<league>/scoreboard`. */
export const Scoreboard = Type.Object({
  events: Type.Array(
    Type.Object({
      id: Type.String(),
      date: Type.String(),
      name: Type.String(),
      status: Status,
      competitions: Type.Array(
        Type.Object({
          competitors: Type.Array(
            Type.Object({
              homeAway: Type.String(),
              score: Type.Optional(Type.String()),
              team: Type.Object({ displayName: Type.String() }),
            }),
          ),
        }),
      ),
    }),
  ),
});
export type Scoreboard = Type.Static<typeof Scoreboard>;
const NullableString = Type.Union([Type.String(), Type.Null()]);
/** TheSportsDB v1 sends every value as a string (or null) and `events: null` for an empty day. */
export const EventsDay = Type.Object({
  events: Type.Union([
    Type.Array(
      Type.Object({
        idEvent: Type.String(),
        strEvent: Type.String(),
        strTimestamp: Type.Optional(NullableString),
        strHomeTeam: Type.String(),
        strAwayTeam: Type.String(),
        intHomeScore: Type.Optional(NullableString),
        intAwayScore: Type.Optional(NullableString),
        strStatus: Type.Optional(NullableString),
      }),
    ),
    Type.Null(),
  ]),
});
export type EventsDay = Type.Static<typeof EventsDay>;
