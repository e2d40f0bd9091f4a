/** @module modules/community/model — schemas and OpenAPI text of /api/community (the public feed, posting, reports and moderation). */
import { t, type Static } from 'elysia';
import { PageMetaSchema, PageQuery } from '../../pagination';
import { idParam, symbolList } from '../shared/account';
import { SymbolParam } from '../shared/params';

export const MAX_POST_LENGTH = 2000;
export const MAX_POST_SYMBOLS = 10;
export const MAX_REASON_LENGTH = 500;

const fields = {
  body: t.String({ minLength: 1, maxLength: MAX_POST_LENGTH, description: `The post’s text, 1–${MAX_POST_LENGTH} characters`, examples: ['NVDA clearing its flat base on 2× volume; stop under the base low.'], error: `Body field 'body' must be 1–${MAX_POST_LENGTH} characters` }),
  signalId: t.String({ minLength: 1, maxLength: 200, description: 'A signal Breakline surfaced (SYMBOL-pattern-detectedAt); its symbol is tagged too', error: "Body field 'signalId' must be a signal id" }),
  symbols: symbolList('symbols', 0, MAX_POST_SYMBOLS, `Symbol tags, at most ${MAX_POST_SYMBOLS}`),
};

export const CreatePostBody = t.Object(
  { body: fields.body, signalId: t.Optional(fields.signalId), symbols: t.Optional(fields.symbols) },
  { additionalProperties: false, examples: [{ body: 'NVDA clearing its flat base on 2× volume; stop under the base low.', signalId: 'NVDA-flat_base-2026-11-18T00:00:00.000Z', symbols: ['NVDA', 'SMH'] }] },
);
export type CreatePostBody = Static<typeof CreatePostBody>;
export const EditPostBody = t.Object(
  { body: t.Optional(fields.body), signalId: t.Optional(t.Union([fields.signalId, t.Null()])), symbols: t.Optional(fields.symbols) },
  { additionalProperties: false, description: 'Only the fields sent change', examples: [{ body: 'Stopped out: the base failed.' }] },
);
export type EditPostBody = Static<typeof EditPostBody>;
export const ReportBody = t.Object(
  { reason: t.String({ minLength: 1, maxLength: MAX_REASON_LENGTH, description: 'What is wrong with the post', examples: ['spam'], error: `Body field 'reason' must be 1–${MAX_REASON_LENGTH} characters` }) },
  { additionalProperties: false, examples: [{ reason: 'spam' }] },
);
export type ReportBody = Static<typeof ReportBody>;
export const ModerationBody = t.Object(
  {
    hidden: t.Boolean({ description: 'true hides the post from the feed; false shows it again', error: "Body field 'hidden' must be true or false" }),
    reason: t.Optional(t.String({ minLength: 1, maxLength: MAX_REASON_LENGTH, description: 'Why (kept with the post)', error: `Body field 'reason' must be 1–${MAX_REASON_LENGTH} characters` })),
  },
  { additionalProperties: false, examples: [{ hidden: true, reason: 'advertising' }] },
);
export type ModerationBody = Static<typeof ModerationBody>;

export const PostParams = t.Object({ id: idParam('pst', 'post') });
export const FeedQuery = t.Object({ ...PageQuery, symbol: t.Optional(SymbolParam) });
export type FeedQuery = Static<typeof FeedQuery>;
export const ModerationQuery = t.Object(PageQuery);
export type ModerationQuery = Static<typeof ModerationQuery>;

const postFields = {
  id: t.String({ description: 'pst_…' }),
  author: t.String({ description: 'A stable pseudonym of the author (usr_ and 16 hex digits of a SHA-256 of the user id): the feed does not publish identity-provider ids' }),
  body: t.String(),
  signalId: t.Union([t.String(), t.Null()]),
  symbols: t.Array(t.String()),
  createdAt: t.String({ format: 'date-time' }),
  editedAt: t.Union([t.String({ format: 'date-time' }), t.Null()]),
};
const EXAMPLE_POST = {
  id: 'pst_9m4f8k2qd0xw5n3c7v1b',
  author: 'usr_3f9a0c1d7e2b4a68',
  body: 'NVDA clearing its flat base on 2× volume; stop under the base low.',
  signalId: 'NVDA-flat_base-2026-11-18T00:00:00.000Z',
  symbols: ['NVDA', 'SMH'],
  createdAt: '2026-11-20T15:31:00.000Z',
  editedAt: null,
};
export const PostSchema = t.Object(postFields, { title: 'CommunityPost', examples: [EXAMPLE_POST] });
export type PostSchema = Static<typeof PostSchema>;
export const FeedPage = t.Object({ items: t.Array(PostSchema), pagination: PageMetaSchema }, { title: 'CommunityFeedPage' });
export type FeedPage = Static<typeof FeedPage>;

export const ModeratedPostSchema = t.Object(
  {
    ...postFields,
    userId: t.String({ description: 'The author’s user id (admins only)' }),
    hidden: t.Boolean(),
    hiddenReason: t.Union([t.String(), t.Null()]),
    hiddenBy: t.Union([t.String(), t.Null()], { description: 'The admin who hid it, or "reports" when enough users reported it' }),
    hiddenAt: t.Union([t.String({ format: 'date-time' }), t.Null()]),
    reportCount: t.Integer(),
    reports: t.Array(t.Object({ userId: t.String(), reason: t.String(), createdAt: t.String({ format: 'date-time' }) })),
  },
  { title: 'ModeratedCommunityPost', examples: [{ ...EXAMPLE_POST, userId: 'user_29w83sxmDNGwOuEthce5gg56FcC', hidden: true, hiddenReason: '5 reports', hiddenBy: 'reports', hiddenAt: '2026-11-20T16:00:00.000Z', reportCount: 5, reports: [{ userId: 'user_2', reason: 'spam', createdAt: '2026-11-20T15:59:00.000Z' }] }] },
);
export type ModeratedPostSchema = Static<typeof ModeratedPostSchema>;
export const ModerationPage = t.Object({ items: t.Array(ModeratedPostSchema), pagination: PageMetaSchema }, { title: 'CommunityModerationPage' });
export type ModerationPage = Static<typeof ModerationPage>;
export const ReportResponse = t.Object({ postId: t.String(), counted: t.Boolean({ description: 'false when you had reported it before' }) }, { title: 'CommunityReport', examples: [{ postId: 'pst_9m4f8k2qd0xw5n3c7v1b', counted: true }] });
export type ReportResponse = Static<typeof ReportResponse>;

const TAGS = ['Community'];
const RATE = 'Each user may post COMMUNITY_POST_QUOTA times per COMMUNITY_POST_WINDOW_SECONDS (default 10 an hour): 429 with Retry-After past it.';
export const COMMUNITY_DOCS = {
  feed: { tags: TAGS, summary: 'The community feed', description: 'Public: posts newest first, in the pagination envelope (keyset cursor), hidden ones left out. Filter by a symbol tag. No credential needed.' },
  get: { tags: TAGS, summary: 'One post', description: 'Public; a hidden or deleted post is 404.' },
  create: { tags: TAGS, summary: 'Post to the feed', description: `Text of 1–${MAX_POST_LENGTH} characters, an optional signal id (checked) and up to ${MAX_POST_SYMBOLS} symbol tags (checked against the provider). ${RATE} Needs a session. Send Idempotency-Key to make a retry safe.` },
  edit: { tags: TAGS, summary: 'Edit your post', description: 'Only your own: another user’s post is 403. Needs a session.' },
  delete: { tags: TAGS, summary: 'Delete your post', description: 'Your own (an admin may delete any); another user’s post is 403. Needs a session.' },
  report: { tags: TAGS, summary: 'Report a post', description: 'Once per user and post. COMMUNITY_HIDE_AFTER_REPORTS reports from different users (default 5) hide it until an admin decides. Needs a session.' },
  moderation: { tags: TAGS, summary: 'Reported and hidden posts (admins)', description: 'Every post with a report or hidden, newest first, with its author, reports and moderation fields. The admin role (ADMIN_USER_IDS) only: 403 otherwise. Needs a session.' },
  moderate: { tags: TAGS, summary: 'Hide or show a post (admins)', description: 'The admin role (ADMIN_USER_IDS) only: 403 otherwise. Needs a session.' },
};
