/**
 * @module background/webhooks
 * Delivers alert webhooks in the background, signed as Standard Webhooks
 * (standardwebhooks.com, "Signature scheme"): headers `webhook-id` (the
 * delivery id, the same on every retry, for the receiver's de-duplication),
 * `webhook-timestamp` (Unix seconds of this attempt) and `webhook-signature`
 * `v1,` + base64(HMAC-SHA256(secret, `${id}.${timestamp}.${body}`)), where the
 * secret is the rule's `whsec_…` key base64-decoded. A receiver recomputes the
 * HMAC over the raw body and refuses timestamps far from its clock (replays).
 *
 * A delivery is attempted until a 2xx answer, at most `maxAttempts` times:
 * attempt n+1 waits `backoffMs · 2^(n−1)` after attempt n (30 s, 1 min, 2 min, …
 * by default). Every attempt is logged with the status or the error and its
 * duration. No redirect is followed; the address is checked again before
 * each attempt (jobs/webhook-address); each attempt has a timeout. Any
 * instance sends due deliveries (the repository leases them), so pending
 * retries survive a restart; a slow or failing receiver never holds up the
 * scan that fired the alert (`kick` is not awaited there). A pass that failed
 * (the database away) is tried again with backoff; a delivery it had claimed
 * is claimed again when its lease runs out (the receiver de-duplicates by
 * `webhook-id`).
 */
import { createHmac, randomBytes } from 'node:crypto';
import { rootCertificates } from 'node:tls';
import { PolledWorker } from '../poller';
import type { StoredDelivery, WebhooksRepository } from '../db/repositories/webhooks';
import type { Logger } from '../log';
import { checkWebhookUrl } from '../jobs/webhook-address';

export interface WebhookSenderOptions {
  repository: WebhooksRepository;
  /** The signing secret of each rule, by rule id (read when sending). */
  secretOf: (ruleId: string) => Promise<string | undefined>;
  allowPrivate: boolean;
  /** Extra CA certificates (PEM) receivers may be signed by, besides the public roots. */
  extraCa?: string;
  timeoutMs: number;
  maxAttempts: number;
  backoffMs: number;
  /** How often due deliveries of other instances (or from before a restart) are looked for. */
  pollMs?: number;
  userAgent: string;
  log: Logger;
  now?: () => number;
  /** Name resolution for the address check (tests). */
  resolve?: (hostname: string) => Promise<string[]>;
}

const BATCH = 16;
const SECRET_PREFIX = 'whsec_';
/** The longest a wait between attempts grows (backoff doubles up to it). */
const MAX_BACKOFF_MS = 6 * 3_600_000;

/** A new signing secret: `whsec_` and 32 random bytes in base64 (the Standard Webhooks format). */
export function newWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

/** The `webhook-signature` header value for a message. */
export function signWebhook(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64')}`;
}

/** The wait before attempt `next` (2, 3, …). */
export function backoffBefore(next: number, backoffMs: number): number {
  return Math.min(MAX_BACKOFF_MS, backoffMs * 2 ** Math.max(0, next - 2));
}

export interface AttemptResult {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

/** Sends every due delivery, each pass (`kick` when an alert fires; every `pollMs` besides, for retries and other instances' work). */
export class WebhookSender extends PolledWorker {
  private readonly ca: string[] | undefined;

  constructor(private readonly options: WebhookSenderOptions) {
    super({ what: 'webhook delivery pass', log: options.log, everyMs: options.pollMs ?? 15_000 });
    this.ca = options.extraCa ? [...rootCertificates, options.extraCa] : undefined;
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  protected async pass(): Promise<void> {
    const { repository, timeoutMs } = this.options;
    for (;;) {
      const now = this.now();
      // Leased past the attempt's timeout (and the address check): another instance takes it only if this one died.
      const due = await repository.claimDue(new Date(now), new Date(now + timeoutMs * 2 + 10_000), BATCH);
      if (due.length === 0) return;
      await Promise.all(due.map((delivery) => this.deliver(delivery)));
    }
  }

  private async deliver(delivery: StoredDelivery): Promise<void> {
    const { repository, maxAttempts, backoffMs, log } = this.options;
    const attempt = delivery.attempts + 1;
    const at = this.now();
    const result = await this.attempt(delivery);
    const ok = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
    const finished = ok || attempt >= maxAttempts;
    const wait = backoffBefore(attempt + 1, backoffMs);
    await repository.recordAttempt(
      { deliveryId: delivery.id, attempt, at: new Date(at), statusCode: result.statusCode, error: result.error, durationMs: result.durationMs },
      { status: ok ? 'delivered' : finished ? 'failed' : 'pending', nextAttemptAt: new Date(finished ? at : this.now() + wait), finishedAt: finished ? new Date(this.now()) : null },
    );
    if (!ok) log.warn(finished ? 'webhook delivery failed for good' : 'webhook delivery failed; will retry', { delivery: delivery.id, attempt, status: result.statusCode, error: result.error });
    // A hint to this instance to try again when the retry is due (the poll finds it otherwise).
    if (!finished) this.poller.retryIn(wait + 5);
  }

  /** One HTTP attempt: the receiver's status, or the error that stopped it. */
  async attempt(delivery: StoredDelivery): Promise<AttemptResult> {
    const started = performance.now();
    const took = () => Math.round(performance.now() - started);
    const { allowPrivate, resolve, timeoutMs, userAgent } = this.options;
    const address = await checkWebhookUrl(delivery.url, { allowPrivate, resolve });
    if (!address.ok) return { statusCode: null, error: `refused address: ${address.reason}`, durationMs: took() };
    const secret = await this.options.secretOf(delivery.ruleId);
    if (!secret) return { statusCode: null, error: 'the rule has no webhook any more', durationMs: took() };
    const timestamp = Math.floor(this.now() / 1000);
    try {
      const response = await fetch(address.url, {
        method: 'POST',
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
        headers: {
          'content-type': 'application/json',
          'user-agent': userAgent,
          'webhook-id': delivery.id,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': signWebhook(secret, delivery.id, timestamp, delivery.payload),
        },
        body: delivery.payload,
        ...(this.ca ? { tls: { ca: this.ca } } : {}),
      });
      await response.body?.cancel().catch(() => {});
      const redirect = response.status >= 300 && response.status < 400 ? 'redirects are not followed' : null;
      return { statusCode: response.status, error: redirect ?? (response.ok ? null : `HTTP ${response.status}`), durationMs: took() };
    } catch (error) {
      const name = (error as Error)?.name;
      const message = name === 'TimeoutError' || name === 'AbortError' ? `no answer within ${timeoutMs} ms` : String((error as Error)?.message ?? error);
      return { statusCode: null, error: message.slice(0, 500), durationMs: took() };
    }
  }
}
