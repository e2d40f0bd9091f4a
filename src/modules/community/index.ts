/** @module modules/community — /api/community: the public feed; posting, editing, deleting and reporting with a session; moderation by admins. */
import { Elysia } from 'elysia';
import { auth } from '../../plugins/auth';
import { idempotency } from '../../plugins/idempotency';
import type { Services } from '../../services';
import { createdWithErrors, jsonBody } from '../shared/account';
import { withErrors } from '../shared/params';
import { COMMUNITY_DOCS, CreatePostBody, EditPostBody, FeedPage, FeedQuery, ModeratedPostSchema, ModerationBody, ModerationPage, ModerationQuery, PostParams, PostSchema, ReportBody, ReportResponse } from './model';
import { createPost, deletePost, editPost, feed, getPost, moderate, moderationQueue, reportPost } from './service';
import { bodyLimit } from '../../plugins/body-limit';

export function communityModule(services: Services) {
  const limit = services.config.account.bodyLimitBytes;
  return new Elysia({ name: 'breakline/community' })
    .use(bodyLimit)
    .use(auth(services.auth.authenticator))
    .use(idempotency(services))
    .get('/api/community/feed', ({ query }) => feed(services, query), {
      query: FeedQuery,
      response: withErrors(FeedPage, 400, 429),
      detail: { ...COMMUNITY_DOCS.feed },
    })
    .post(
      '/api/community/feed',
      async ({ principal, body, set }) => {
        set.status = 201;
        return createPost(services, principal, body);
      },
      { auth: 'POST /api/community/feed', idempotent: true, ...jsonBody(limit, CreatePostBody), response: createdWithErrors(PostSchema, 400, 401, 403, 409, 413, 429), detail: { ...COMMUNITY_DOCS.create } },
    )
    .get('/api/community/feed/:id', ({ params }) => getPost(services, params.id), {
      params: PostParams,
      response: withErrors(PostSchema, 400, 404, 429),
      detail: { ...COMMUNITY_DOCS.get },
    })
    .patch('/api/community/feed/:id', ({ principal, params, body }) => editPost(services, principal, params.id, body), {
      auth: 'PATCH /api/community/feed/:id',
      params: PostParams,
      ...jsonBody(limit, EditPostBody),
      response: withErrors(PostSchema, 400, 401, 403, 404, 413, 429),
      detail: { ...COMMUNITY_DOCS.edit },
    })
    .delete('/api/community/feed/:id', ({ principal, params }) => deletePost(services, principal, params.id), {
      auth: 'DELETE /api/community/feed/:id',
      params: PostParams,
      response: withErrors(PostSchema, 400, 401, 403, 404, 429),
      detail: { ...COMMUNITY_DOCS.delete },
    })
    .post('/api/community/feed/:id/report', ({ principal, params, body }) => reportPost(services, principal, params.id, body), {
      auth: 'POST /api/community/feed/:id/report',
      idempotent: true,
      params: PostParams,
      ...jsonBody(limit, ReportBody),
      response: withErrors(ReportResponse, 400, 401, 403, 404, 409, 413, 429),
      detail: { ...COMMUNITY_DOCS.report },
    })
    .get('/api/community/moderation', ({ principal, query }) => moderationQueue(services, principal, query), {
      auth: 'GET /api/community/moderation',
      query: ModerationQuery,
      response: withErrors(ModerationPage, 400, 401, 403, 429),
      detail: { ...COMMUNITY_DOCS.moderation },
    })
    .post('/api/community/feed/:id/moderation', ({ principal, params, body }) => moderate(services, principal, params.id, body), {
      auth: 'POST /api/community/feed/:id/moderation',
      idempotent: true,
      params: PostParams,
      ...jsonBody(limit, ModerationBody),
      response: withErrors(ModeratedPostSchema, 400, 401, 403, 404, 409, 413, 429),
      detail: { ...COMMUNITY_DOCS.moderate },
    });
}
