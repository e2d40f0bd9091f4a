/**
 * @module modules/graphql/operations/community
 * The GraphQL fields over the community feed: its reads, and the writes
 * under their REST routes' rows of the authorisation table.
 */
import { CreatePostBody, EditPostBody, FeedPage, FeedQuery, PostParams, PostSchema } from '../../community/model';
import { createPost, deletePost, editPost, feed, getPost } from '../../community/service';
import { join, operation, type Operation } from '../operation';

export const COMMUNITY_QUERIES: Record<string, Operation> = {
  communityFeed: operation({ route: 'GET /api/community/feed', args: FeedQuery, result: FeedPage, run: ({ services }, q) => feed(services, q) }),
  communityPost: operation({ route: 'GET /api/community/feed/:id', args: PostParams, result: PostSchema, run: ({ services }, q) => getPost(services, q.id) }),};

export const COMMUNITY_MUTATIONS: Record<string, Operation> = {
  createCommunityPost: operation({ route: 'POST /api/community/feed', args: CreatePostBody, result: PostSchema, run: ({ services }, a, p) => createPost(services, p, a) }),
  editCommunityPost: operation({ route: 'PATCH /api/community/feed/:id', args: join(PostParams, EditPostBody), result: PostSchema, run: ({ services }, { id, ...body }, p) => editPost(services, p, id, body) }),
  deleteCommunityPost: operation({ route: 'DELETE /api/community/feed/:id', args: PostParams, result: PostSchema, run: ({ services }, a, p) => deletePost(services, p, a.id) }),};
