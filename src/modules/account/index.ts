/** @module modules/account — the Account tag: a user's API keys (POST/GET /api/keys, DELETE /api/keys/:id), session required. */
import { Elysia, t } from 'elysia';
import { auth } from '../../plugins/auth';
import type { Services } from '../../services';
import { bodyLimit } from '../../plugins/body-limit';
import { withErrors } from '../shared/params';
import { ACCOUNT_DOCS, ApiKeySchema, CreateKeyBody, CreatedKeySchema, KeyListSchema, KeyParams } from './model';
import { createKey, listKeys, revokeKey } from './service';

/** A key's name and tier: a few hundred bytes at most. */
const KEY_BODY_LIMIT_BYTES = 4096;

export function accountModule(services: Services) {
  const { keys, authenticator } = services.auth;
  const { 200: created, ...createErrors } = withErrors(CreatedKeySchema, 400, 401, 403, 413, 429);
  return new Elysia({ name: 'breakline/account' })
    .use(bodyLimit)
    .use(auth(authenticator))
    .post(
      '/api/keys',
      async ({ principal, body, set }) => {
        const answer = await createKey(keys, principal, body, services.config.account.caps.apiKeys);
        set.status = 201;
        return answer;
      },
      // Read within its limit when parsed, checked against CreateKeyBody by Elysia after the session (the credential before the input).
      { auth: 'POST /api/keys', jsonBody: { limit: KEY_BODY_LIMIT_BYTES, schema: t.Unknown() }, body: CreateKeyBody, response: { 201: created, ...createErrors }, detail: { ...ACCOUNT_DOCS.create } },
    )
    .get('/api/keys', ({ principal }) => listKeys(keys, principal), {
      auth: 'GET /api/keys',
      response: withErrors(KeyListSchema, 401, 429),
      detail: { ...ACCOUNT_DOCS.list },
    })
    .delete('/api/keys/:id', ({ principal, params }) => revokeKey(keys, principal, params.id), {
      auth: 'DELETE /api/keys/:id',
      params: KeyParams,
      response: withErrors(ApiKeySchema, 400, 401, 403, 404, 429),
      detail: { ...ACCOUNT_DOCS.revoke },
    });
}
