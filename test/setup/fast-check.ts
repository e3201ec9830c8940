import fc from 'fast-check';

/**
 * Property tests run from a fixed seed so a CI run is reproducible; `FC_SEED=<n> npm test` explores other inputs
 * (a counterexample found that way becomes a regression example in its test).
 */
fc.configureGlobal({ seed: Number(process.env.FC_SEED ?? 20261124) });
