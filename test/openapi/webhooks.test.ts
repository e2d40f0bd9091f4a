/**
 * The OpenAPI document's `webhooks` section (issue 31): the alert webhook's
 * body is published, and the body jobs/alert-rules actually sends validates
 * against it (ajv 2020, strict, as test/helpers/openapi reads the document).
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { StoredAlertRule } from '../../src/db/repositories/alert-rules';
import { webhookPayload } from '../../src/jobs/alert-rules';
import { createTestContext, type TestContext } from '../helpers/app';
import { sampleSignal } from '../helpers/sse';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

describe('OpenAPI webhooks', () => {
  it('publishes alerts.dispatched with its signature headers, and the body sent validates against it', async () => {
    const doc = (await (await ctx.request('/openapi/json')).json()) as { openapi: string; webhooks?: Record<string, { post: { parameters: { name: string }[]; requestBody: { content: Record<string, { schema: object }> } } }> };
    expect(doc.openapi).toStartWith('3.1');
    const hook = doc.webhooks?.['alerts.dispatched']?.post;
    expect(hook?.parameters.map((p) => p.name)).toEqual(['webhook-id', 'webhook-timestamp', 'webhook-signature']);
    const ajv = new Ajv2020({ strict: true, allErrors: true });
    addFormats(ajv);
    const validate = ajv.compile(hook!.requestBody.content['application/json']!.schema);
    const rule = { id: 'rul_1', name: 'Semis' } as StoredAlertRule;
    const at = new Date(Date.UTC(2026, 10, 20, 18, 5));
    const body = JSON.parse(webhookPayload(rule, sampleSignal(1), { id: 'alt_1', at, createdAt: at }));
    expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
    // It is closed: a field the sender does not send is refused.
    expect(validate({ ...body, extra: 1 })).toBe(false);
  });
});
