import type { BackgroundErrors } from '../core/background.js';

/**
 * The last line of defence of a server process: a promise rejected with nobody to catch it is a bug
 * to fix where it starts (logged at error, counted as `svc_background_errors_total{job="unhandled_rejection"}`),
 * but it must not end the process and every request it is serving. Node's default is to exit.
 */
export function surviveUnhandledRejections(background: BackgroundErrors): void {
  process.on('unhandledRejection', (reason) => background.unhandled(reason));
}
