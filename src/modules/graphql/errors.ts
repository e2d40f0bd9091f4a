/**
 * @module modules/graphql/errors
 * A failure as a GraphQL error: an AppError (or a provider failure, or a
 * value the database refused, as plugins/errors maps them) gets an
 * `extensions.code` of GraphQL's usual set where one fits, its own code
 * upper-cased otherwise, and the REST status.
 */
import { GraphQLError } from 'graphql';
import { isDataException } from '../../db/data-errors';
import { AppError } from '../../errors';
import { DATA_EXCEPTION_MESSAGE, fromProvider } from '../../plugins/errors';
import { ProviderError } from '../../providers/types';

/** The GraphQL error codes an AppError maps to (`extensions.code`), besides its own code upper-cased. */
const CODES: Partial<Record<AppError['code'], string>> = {
  invalid_parameter: 'BAD_USER_INPUT',
  invalid_body: 'BAD_USER_INPUT',
  unauthorized: 'UNAUTHENTICATED',
  invalid_authorization: 'UNAUTHENTICATED',
  invalid_key: 'UNAUTHENTICATED',
  revoked_key: 'UNAUTHENTICATED',
  expired_session: 'UNAUTHENTICATED',
  invalid_session: 'UNAUTHENTICATED',
  forbidden: 'FORBIDDEN',
  insufficient_scope: 'FORBIDDEN',
};

/** An AppError (or a provider failure, or a value the database refused) as a GraphQL error: `extensions.code` and the REST status; anything else stays for yoga to mask. */
export function graphQLError(thrown: unknown): unknown {
  const error = thrown instanceof ProviderError ? fromProvider(thrown) : isDataException(thrown) ? new AppError('invalid_parameter', DATA_EXCEPTION_MESSAGE) : thrown;
  if (!(error instanceof AppError)) return error;
  // `reason`: the REST code where the GraphQL one is coarser (which refusal, which missing scope).
  const code = CODES[error.code];
  return new GraphQLError(error.message, { extensions: { code: code ?? error.code.toUpperCase(), status: error.status, ...(code && code !== 'BAD_USER_INPUT' ? { reason: error.code } : {}) } });
}
