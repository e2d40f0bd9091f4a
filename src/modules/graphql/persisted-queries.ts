/**
 * @module modules/graphql/persisted-queries
 * Automatic persisted queries (Apollo's protocol): a client may send only the
 * sha256 of a query it sent once; the queries are kept in a bounded store
 * services.ts builds and, with REDIS_URL, shared between instances
 * (redis/query-store).
 */
import { createHash } from 'node:crypto';
import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Lru } from '../../lru';

/** Where persisted queries are shared between instances (redis/query-store, with REDIS_URL). */
export interface SharedQueries {
  get(hash: string): Promise<string | undefined>;
  put(hash: string, query: string): Promise<void>;
}

/**
 * Automatic persisted queries: queries by their sha256 (a bounded store
 * services.ts builds), filled by clients that send both; with `shared`, one
 * registered on any instance is found on the others.
 */
export class PersistedQueries {
  constructor(
    private readonly queries: Lru<string, string>,
    private readonly shared?: SharedQueries,
  ) {}

  plugin(): Plugin {
    return {
      onParams: async ({ params, setParams }) => {
        const persisted = (params.extensions as { persistedQuery?: { sha256Hash?: unknown } } | undefined)?.persistedQuery;
        const hash = persisted?.sha256Hash;
        if (typeof hash !== 'string') return;
        if (typeof params.query === 'string') {
          if (createHash('sha256').update(params.query).digest('hex') !== hash) {
            throw new GraphQLError('The persisted query hash is not the sha256 of the query sent', { extensions: { code: 'PERSISTED_QUERY_HASH_MISMATCH', http: { status: 400 } } });
          }
          if (!this.queries.has(hash)) {
            this.queries.set(hash, params.query);
            await this.shared?.put(hash, params.query);
          }
          return;
        }
        let query = this.queries.get(hash);
        if (query === undefined && this.shared) {
          query = await this.shared.get(hash);
          if (query !== undefined) this.queries.set(hash, query);
        }
        // Apollo's message: clients retry with the query on it.
        if (query === undefined) throw new GraphQLError('PersistedQueryNotFound', { extensions: { code: 'PERSISTED_QUERY_NOT_FOUND', http: { status: 200 } } });
        setParams({ ...params, query });
      },
    };
  }
}
