/** @module modules/account — the Account tag: a user's API keys (POST/GET /api/keys, DELETE /api/keys/:id), session required. */
import { Elysia } from 'elysia';
import { auth } from '../../plugins/auth';
import type { Services } from '../../services';
import { withErrors } from '../params';
import { ACCOUNT_DOCS, ApiKeySchema, CreateKeyBody, CreatedKeySchema, KeyListSchema, KeyParams } from './model';
import { createKey, listKeys, revokeKey } from './service';

export function accountModule(services: Services) {
  const { keys, authenticator } = services.auth;
  const { 200: created, ...createErrors } = withErrors(CreatedKeySchema, 400, 401, 403, 429);
  return new Elysia({ name: 'breakline/account' })
    .use(auth(authenticator))
    .post(
      '/api/keys',
      async ({ principal, body, set }) => {
        const answer = await createKey(keys, principal, body, services.config.account.caps.apiKeys);
        set.status = 201;
        return answer;
      },
      { auth: 'session', body: CreateKeyBody, response: { 201: created, ...createErrors }, detail: { ...ACCOUNT_DOCS.create } },
    )
    .get('/api/keys', ({ principal }) => listKeys(keys, principal), {
      auth: 'session',
      response: withErrors(KeyListSchema, 401, 429),
      detail: { ...ACCOUNT_DOCS.list },
    })
    .delete('/api/keys/:id', ({ principal, params }) => revokeKey(keys, principal, params.id), {
      auth: 'session',
      params: KeyParams,
      response: withErrors(ApiKeySchema, 400, 401, 403, 404, 429),
      detail: { ...ACCOUNT_DOCS.revoke },
    });
}
