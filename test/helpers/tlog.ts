import { BackgroundErrors } from '../../src/core/background.js';
import { systemClock } from '../../src/core/clock.js';
import type { NoteSigner } from '../../src/core/signed-note.js';
import type { TlogRepo } from '../../src/store/repos/tlog.js';
import { TransparencyLog } from '../../src/tlog/log.js';

/** A log over `repo` as the service runs it (integrating every second), with no witnesses to wait for. */
export const logOver = (repo: TlogRepo, signer: NoteSigner) =>
  new TransparencyLog({
    repo,
    signer,
    clock: systemClock,
    background: new BackgroundErrors(() => undefined),
    intervalMs: 1000,
    witnesses: [],
    witnessQuorum: 0,
  });
