/**
 * @module log
 * Structured logs with pino: one JSON line per event on stderr, filtered by
 * `LOG_LEVEL`. Callers use the small `Logger` interface (a message, then the
 * fields), so pino stays behind this file. Lines read
 * `{"level":"info","time":"2026-11-20T18:00:00.000Z","msg":"…",…fields}`.
 *
 * @example
 * const log = createLogger('info');
 * log.info('request', { method: 'GET', route: '/api/bars', status: 200, durationMs: 1.2, requestId: 'req_…' });
 */
import pino from 'pino';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  /** Whether a line at `level` would be written (callers skip building fields that would be dropped). */
  enabled(level: Exclude<LogLevel, 'silent'>): boolean;
}

/**
 * A logger at `level`. Lines go to stderr (synchronously, so a line written
 * before `process.exit` is not lost), or to `write` (tests read them back),
 * one line per call without its newline.
 */
export function createLogger(level: LogLevel, write?: (line: string) => void): Logger {
  const destination = write ? { write: (chunk: string) => write(chunk.endsWith('\n') ? chunk.slice(0, -1) : chunk) } : pino.destination({ fd: 2, sync: true });
  const logger = pino(
    {
      level,
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
  const at = (name: Exclude<LogLevel, 'silent'>) => (msg: string, fields?: Record<string, unknown>) => {
    if (fields === undefined) logger[name](msg);
    else logger[name](fields, msg);
  };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error'), enabled: (name) => logger.isLevelEnabled(name) };
}
