import type { DemoWorld } from '../world.js';

/** What a demo-world route is given and answers: shared by world.ts and every route module, so neither imports the other's values. */
export interface WorldRequest {
  host: string;
  method: string;
  path: string;
  params: URLSearchParams;
  body: string;
  /** The world's time of this request (Unix s). */
  nowS: number;
  /** The route's path match (capture groups). */
  match: RegExpExecArray;
}

/** An answer other than a 200 with a body. */
export class Reply {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
  ) {}
}

export interface Route {
  host: string;
  method?: string;
  path: RegExp;
  answer(req: WorldRequest, world: DemoWorld): unknown;
}
