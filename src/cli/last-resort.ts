/**
 * @module cli/last-resort
 * The server's last line: an error that nothing caught — a promise rejected
 * with nobody awaiting it, an exception thrown from a timer or a socket
 * callback — is logged with its stack and counted
 * (`breakline_unhandled_errors_total`), and the process keeps serving rather
 * than dying with every request in flight (Bun, like Node, exits on either by
 * default; a listener for the event replaces that). Each such error is a bug
 * to fix where it happens (the database client's crash on a closed
 * connection was one: patches/postgres+3.4.9.patch); this only keeps one
 * from taking every instance down meanwhile.
 */
import type { Logger } from '../log';

export type StrayKind = 'rejection' | 'exception';

/**
 * Installs the handlers; `count` is told of each error (the metrics, once the
 * services exist). Answers a function that removes them.
 */
export function surviveStrayErrors(log: Logger, count: (kind: StrayKind) => void): () => void {
  const report = (kind: StrayKind) => (error: unknown) => {
    log.error(kind === 'rejection' ? 'unhandled rejection (survived; a bug to fix)' : 'uncaught exception (survived; a bug to fix)', {
      error: String(error),
      stack: error instanceof Error ? error.stack : undefined,
    });
    count(kind);
  };
  const onRejection = report('rejection');
  const onException = report('exception');
  process.on('unhandledRejection', onRejection);
  process.on('uncaughtException', onException);
  return () => {
    process.off('unhandledRejection', onRejection);
    process.off('uncaughtException', onException);
  };
}
