/**
 * @module modules/community/service
 * The community feed: public reads of visible posts; posting, editing and
 * deleting one's own posts (a session; another user's post is 403 — it is
 * public, so it is no secret that it exists); a per-user posting rate on the
 * shared rate-limit store (exact across instances with Redis); reports, once
 * per user and post, hiding a post at a threshold; and the admin role
 * (`ADMIN_USER_IDS`) that hides, shows and deletes any post.
 */
import { createHash } from 'node:crypto';
import type { Principal } from '../../auth';
import { timestampKey } from '../../db/repositories/keyset';
import type { CommunityPostRow } from '../../db/schema';
import { AppError } from '../../errors';
import { newId } from '../../ids';
import { keysetPage, readPage } from '../../pagination';
import type { Services } from '../../services';
import { checkedSymbols, isAdmin } from '../shared/account';
import { MAX_POST_SYMBOLS, type CreatePostBody, type EditPostBody, type FeedPage, type FeedQuery, type ModeratedPostSchema, type ModerationBody, type ModerationPage, type ModerationQuery, type PostSchema, type ReportBody, type ReportResponse } from './model';

export type CommunityDeps = Pick<Services, 'account' | 'scans' | 'marketData' | 'config' | 'rateLimitStore' | 'log'>;

/** The author as the public feed names them: a stable pseudonym, not the identity provider's id. */
export function authorPseudonym(userId: string): string {
  return `usr_${createHash('sha256').update(`breakline-author:${userId}`).digest('hex').slice(0, 16)}`;
}

function postView(p: CommunityPostRow): PostSchema {
  return { id: p.id, author: authorPseudonym(p.userId), body: p.body, signalId: p.signalId, symbols: p.symbols, createdAt: p.createdAt.toISOString(), editedAt: p.editedAt?.toISOString() ?? null };
}

const notFound = (id: string) => new AppError('not_found', `No post ${id}`);

/** The post's tags: its symbols checked, plus the linked signal's symbol (the signal must exist). */
async function tags(deps: CommunityDeps, symbols: readonly string[], signalId: string | null): Promise<string[]> {
  const checked = await checkedSymbols(deps.marketData, symbols, 'symbols');
  if (signalId === null) return checked;
  const signal = await deps.scans.signalById(signalId);
  if (!signal) throw new AppError('invalid_body', `Body field 'signalId': no signal ${signalId} was ever surfaced`);
  const all = checked.includes(signal.symbol) ? checked : [signal.symbol, ...checked];
  if (all.length > MAX_POST_SYMBOLS) throw new AppError('invalid_body', `Body field 'symbols': at most ${MAX_POST_SYMBOLS} symbols with the signal's`);
  return all;
}

/** Counts a post against the user's posting rate; 429 past it. */
async function chargePost(deps: CommunityDeps, principal: Principal): Promise<void> {
  const { postQuota, postWindowSeconds } = deps.config.account.community;
  let decision;
  try {
    decision = await deps.rateLimitStore.hit(`community-post:${principal.userId}`, postQuota, postWindowSeconds * 1000);
  } catch (error) {
    deps.log.warn('community post rate store unavailable; post admitted', { error: String(error) });
    return;
  }
  if (decision.allowed) return;
  const retry = Math.max(1, Math.ceil(decision.resetMs / 1000));
  throw new AppError('rate_limited', `You may post ${postQuota} times per ${postWindowSeconds} s; retry in ${retry} s`, { 'retry-after': String(retry) });
}

export async function feed(deps: CommunityDeps, query: FeedQuery): Promise<FeedPage> {
  const request = readPage(query);
  const { rows, total } = await deps.account.community.page({ symbol: query.symbol }, request);
  const page = keysetPage(rows, request, (r) => timestampKey(r.createdAt, r.id), total);
  return { items: page.items.map(postView), pagination: page.pagination };
}

export async function getPost(deps: CommunityDeps, id: string): Promise<PostSchema> {
  const post = await deps.account.community.get(id);
  if (!post || post.hidden) throw notFound(id);
  return postView(post);
}

export async function createPost(deps: CommunityDeps, principal: Principal, body: CreatePostBody): Promise<PostSchema> {
  const symbols = await tags(deps, body.symbols ?? [], body.signalId ?? null);
  await chargePost(deps, principal);
  const post = await deps.account.community.create({
    id: newId('pst'),
    userId: principal.userId,
    body: body.body,
    signalId: body.signalId ?? null,
    symbols,
    hidden: false,
    hiddenReason: null,
    hiddenBy: null,
    hiddenAt: null,
    reportCount: 0,
    createdAt: new Date(),
    editedAt: null,
  });
  return postView(post);
}

/** The post if the principal may change it: 404 when there is none (or it is hidden from them), 403 when it is someone else's. */
async function ownPost(deps: CommunityDeps, principal: Principal, id: string, adminMay: boolean): Promise<CommunityPostRow> {
  const post = await deps.account.community.get(id);
  const admin = adminMay && isAdmin(deps.config.account.adminUserIds, principal);
  if (!post || (post.hidden && post.userId !== principal.userId && !admin)) throw notFound(id);
  if (post.userId !== principal.userId && !admin) throw new AppError('forbidden', `Post ${id} is another user’s; you can change only your own`);
  return post;
}

export async function editPost(deps: CommunityDeps, principal: Principal, id: string, body: EditPostBody): Promise<PostSchema> {
  const post = await ownPost(deps, principal, id, false);
  const signalId = body.signalId === undefined ? post.signalId : body.signalId;
  const symbols = body.symbols === undefined && body.signalId === undefined ? post.symbols : await tags(deps, body.symbols ?? post.symbols, signalId);
  const edited = await deps.account.community.edit(principal.userId, id, { body: body.body ?? post.body, signalId, symbols, editedAt: new Date() });
  if (!edited) throw notFound(id);
  return postView(edited);
}

export async function deletePost(deps: CommunityDeps, principal: Principal, id: string): Promise<PostSchema> {
  const post = await ownPost(deps, principal, id, true);
  const deleted = await deps.account.community.delete(post.userId === principal.userId ? principal.userId : null, id);
  if (!deleted) throw notFound(id);
  return postView(deleted);
}

export async function reportPost(deps: CommunityDeps, principal: Principal, id: string, body: ReportBody): Promise<ReportResponse> {
  const post = await deps.account.community.get(id);
  if (!post || post.hidden) throw notFound(id);
  if (post.userId === principal.userId) throw new AppError('invalid_body', 'You cannot report your own post');
  const result = await deps.account.community.report({ postId: id, userId: principal.userId, reason: body.reason, createdAt: new Date() }, deps.config.account.community.hideAfterReports);
  if (!result) throw notFound(id);
  return { postId: id, counted: result.counted };
}

function requireAdmin(deps: CommunityDeps, principal: Principal): void {
  if (!isAdmin(deps.config.account.adminUserIds, principal)) throw new AppError('forbidden', 'This needs the admin role (ADMIN_USER_IDS)');
}

async function moderatedView(deps: CommunityDeps, post: CommunityPostRow): Promise<ModeratedPostSchema> {
  const reports = await deps.account.community.reportsOf(post.id);
  return {
    ...postView(post),
    userId: post.userId,
    hidden: post.hidden,
    hiddenReason: post.hiddenReason,
    hiddenBy: post.hiddenBy,
    hiddenAt: post.hiddenAt?.toISOString() ?? null,
    reportCount: post.reportCount,
    reports: reports.map((r) => ({ userId: r.userId, reason: r.reason, createdAt: r.createdAt.toISOString() })),
  };
}

export async function moderationQueue(deps: CommunityDeps, principal: Principal, query: ModerationQuery): Promise<ModerationPage> {
  requireAdmin(deps, principal);
  const request = readPage(query);
  const { rows, total } = await deps.account.community.page({ moderation: true }, request);
  const page = keysetPage(rows, request, (r) => timestampKey(r.createdAt, r.id), total);
  return { items: await Promise.all(page.items.map((p) => moderatedView(deps, p))), pagination: page.pagination };
}

export async function moderate(deps: CommunityDeps, principal: Principal, id: string, body: ModerationBody): Promise<ModeratedPostSchema> {
  requireAdmin(deps, principal);
  const post = await deps.account.community.moderate(id, { hidden: body.hidden, reason: body.reason ?? null, by: principal.userId, at: new Date() });
  if (!post) throw notFound(id);
  return moderatedView(deps, post);
}
