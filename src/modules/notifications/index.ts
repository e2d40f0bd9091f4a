/** @module modules/notifications — /api/notifications (a user's in-app notifications) and /api/breakouts/notifications (breakout events on their watchlists). */
import { Elysia } from 'elysia';
import { auth } from '../../plugins/auth';
import { idempotency } from '../../plugins/idempotency';
import type { Services } from '../../services';
import { withErrors } from '../shared/params';
import { BreakoutEventPage, BreakoutNotificationQuery, NOTIFICATION_DOCS, NotificationPage, NotificationParams, NotificationQuery, NotificationSchema, ReadAllResponse } from './model';
import { breakoutNotifications, listNotifications, markAllRead, markRead } from './service';

export function notificationsModule(services: Services) {
  return new Elysia({ name: 'breakline/notifications' })
    .use(auth(services.auth.authenticator))
    .use(idempotency(services))
    .get('/api/notifications', ({ principal, query }) => listNotifications(services, principal, query), {
      auth: 'GET /api/notifications',
      query: NotificationQuery,
      response: withErrors(NotificationPage, 400, 401, 429),
      detail: { ...NOTIFICATION_DOCS.list },
    })
    .post('/api/notifications/read-all', ({ principal }) => markAllRead(services, principal), {
      auth: 'POST /api/notifications/read-all',
      idempotent: true,
      response: withErrors(ReadAllResponse, 401, 403, 409, 429),
      detail: { ...NOTIFICATION_DOCS.readAll },
    })
    .post('/api/notifications/:id/read', ({ principal, params }) => markRead(services, principal, params.id), {
      auth: 'POST /api/notifications/:id/read',
      idempotent: true,
      params: NotificationParams,
      response: withErrors(NotificationSchema, 400, 401, 403, 404, 409, 429),
      detail: { ...NOTIFICATION_DOCS.read },
    })
    .get('/api/breakouts/notifications', ({ principal, query }) => breakoutNotifications(services, principal, query), {
      auth: 'GET /api/breakouts/notifications',
      query: BreakoutNotificationQuery,
      response: withErrors(BreakoutEventPage, 400, 401, 404, 429),
      detail: { ...NOTIFICATION_DOCS.breakouts },
    });
}
