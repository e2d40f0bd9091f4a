/** @module modules/alerts — /api/alerts/v2: a user's alert rules and their webhook delivery log (reads: session or API key; writes: session). */
import { Elysia } from 'elysia';
import { auth } from '../../plugins/auth';
import { idempotency } from '../../plugins/idempotency';
import type { Services } from '../../services';
import { createdWithErrors, jsonBody } from '../shared/account';
import { withErrors } from '../shared/params';
import { ALERT_DOCS, CreateRuleBody, DeliveryPage, RulePage, RuleParams, RuleQuery, RuleSchema, UpdateRuleBody } from './model';
import { createRule, deleteRule, getRule, listDeliveries, listRules, updateRule } from './service';
import { bodyLimit } from '../../plugins/body-limit';

export function alertsModule(services: Services) {
  const limit = services.config.account.bodyLimitBytes;
  return new Elysia({ name: 'breakline/alerts' })
    .use(bodyLimit)
    .use(auth(services.auth.authenticator))
    .use(idempotency(services))
    .get('/api/alerts/v2', ({ principal, query }) => listRules(services, principal, query), {
      auth: 'GET /api/alerts/v2',
      query: RuleQuery,
      response: withErrors(RulePage, 400, 401, 429),
      detail: { ...ALERT_DOCS.list },
    })
    .post(
      '/api/alerts/v2',
      async ({ principal, body, set }) => {
        set.status = 201;
        return createRule(services, principal, body);
      },
      { auth: 'POST /api/alerts/v2', idempotent: true, ...jsonBody(limit, CreateRuleBody), response: createdWithErrors(RuleSchema, 400, 401, 403, 404, 409, 413, 429), detail: { ...ALERT_DOCS.create } },
    )
    .get('/api/alerts/v2/:id', ({ principal, params }) => getRule(services, principal, params.id), {
      auth: 'GET /api/alerts/v2/:id',
      params: RuleParams,
      response: withErrors(RuleSchema, 400, 401, 404, 429),
      detail: { ...ALERT_DOCS.get },
    })
    .patch('/api/alerts/v2/:id', ({ principal, params, body }) => updateRule(services, principal, params.id, body), {
      auth: 'PATCH /api/alerts/v2/:id',
      params: RuleParams,
      ...jsonBody(limit, UpdateRuleBody),
      response: withErrors(RuleSchema, 400, 401, 403, 404, 413, 429),
      detail: { ...ALERT_DOCS.update },
    })
    .delete('/api/alerts/v2/:id', ({ principal, params }) => deleteRule(services, principal, params.id), {
      auth: 'DELETE /api/alerts/v2/:id',
      params: RuleParams,
      response: withErrors(RuleSchema, 400, 401, 403, 404, 429),
      detail: { ...ALERT_DOCS.delete },
    })
    .get('/api/alerts/v2/:id/deliveries', ({ principal, params, query }) => listDeliveries(services, principal, params.id, query), {
      auth: 'GET /api/alerts/v2/:id/deliveries',
      params: RuleParams,
      query: RuleQuery,
      response: withErrors(DeliveryPage, 400, 401, 404, 429),
      detail: { ...ALERT_DOCS.deliveries },
    });
}
