import { ManualClock } from '../../src/core/clock.js';

/** The real time behind the test clock's type: the SDK and CLI sign payments with the wall clock. */
export class WallClock extends ManualClock {
  override now(): number {
    return Date.now();
  }
}
