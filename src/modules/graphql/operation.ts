/**
 * @module modules/graphql/operation
 * One GraphQL field over a REST operation, and how its arguments are read:
 * the REST route's query, path and body schemas in one object schema, checked
 * by them (their defaults, formats and messages) and decoded as the route
 * decodes them. `operation()` ties the resolver's argument type to that
 * schema (`StaticDecode`), so a change to a REST parameter is a type error in
 * the resolver (issue 29); the schema's field sees the erased `Operation`.
 *
 * @example
 * const snapshotField = operation({ route: 'GET /api/snapshot', args: SnapshotQuery, result: SnapshotResponse, run: ({ services }, q) => snapshot(services.marketData, q.symbol) });
 */
import { Type, type StaticDecode, type TObject, type TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { GraphQLError } from 'graphql';
import { accessOf, type Principal } from '../../auth';
import type { ApiVersion } from '../../config';
import type { Services } from '../../services';

/** What a resolver gets besides its checked arguments. */
export interface OperationContext {
  services: Services;
  apiVersion: ApiVersion;
}

/** An operation as its module declares it: `run` takes the arguments its own `args` schema decodes. */
export interface OperationSpec<A extends TObject> {
  /** The REST route (`METHOD /path` as the route table has it): the field's rate-limit class is the route's. */
  route: string;
  /** What the field adds to saying its route. */
  description?: string;
  /** The arguments: the REST route's query, path and body properties, in one object schema. */
  args: A;
  /** The REST route's 200 (or 201/202) schema. */
  result: TSchema;
  /** `principal`: the caller its route's row of the authorisation table admitted (a public route's resolver does not read it). */
  run(ctx: OperationContext, args: StaticDecode<A>, principal: Principal): Promise<unknown> | unknown;
  /** The value is plain JSON already (JSON text parsed here, or a value made of JSON values only): not copied through JSON. */
  plain?: true;
}

/** An operation as the schema uses it: `run` checks and decodes the raw GraphQL arguments by `args`, then resolves. */
export interface Operation extends Omit<OperationSpec<TObject>, 'run'> {
  run(ctx: OperationContext, raw: Readonly<Record<string, unknown>>, principal: Principal): Promise<unknown>;
}

/** An operation whose resolver is typed by its own argument schema. */
export function operation<A extends TObject>(spec: OperationSpec<A>): Operation {
  return { ...spec, run: async (ctx, raw, principal) => spec.run(ctx, checkedArgs(spec.args, raw), principal) };
}

/** No arguments. */
export const NONE = Type.Object({});
/** One argument object from the REST route's path, query and body schemas. */
export const join = <A extends TObject, B extends TObject>(a: A, b: B) => Type.Composite([a, b]);
/** JSON text a REST service already serialised, as the value it stands for. */
export const parsed = async (json: Promise<string>): Promise<unknown> => JSON.parse(await json);

/** What a field's documentation says: its route, what the field adds, and what its row of the authorisation table asks. */
export const describe = (op: Pick<Operation, 'route' | 'description'>): string => {
  const access = accessOf(op.route);
  const needs = access ? `; needs a session or an API key with '${access.scope}'${access.tier ? `, ${access.tier} tier or above` : ''}` : '';
  return `${op.description ? `${op.route}: ${op.description}` : op.route}${needs}`;
};

export const badInput = (message: string) => new GraphQLError(message, { extensions: { code: 'BAD_USER_INPUT', status: 400 } });
const asArgument = (message: string) => message.replace(/^(Query|Path) parameter|^Body field/, 'Argument');

/**
 * The arguments checked by the REST schema (its defaults, formats and
 * messages), decoded as the route decodes them. A value the check passes but
 * a decoder refuses (a decimal string out of an integer's bounds: the bounds
 * are checked after decoding) is BAD_USER_INPUT with the schema's message too.
 */
export function checkedArgs<A extends TObject>(schema: A, raw: Readonly<Record<string, unknown>>): StaticDecode<A> {
  const given = Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== null && v !== undefined));
  const value = Value.Default(schema, Value.Clone(given));
  const failure = Value.Errors(schema, value).First();
  if (failure) {
    const custom = typeof failure.schema.error === 'string' ? failure.schema.error : undefined;
    const where = failure.path.replace(/^\//, '').replaceAll('/', '.') || 'arguments';
    throw badInput(custom ? asArgument(custom) : `Argument '${where}': ${failure.message}`);
  }
  try {
    return Value.Decode(schema, value);
  } catch (error) {
    // TypeBox's TransformDecodeError carries the transform's own error (Elysia's number decoders throw the parameter's `error` text).
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
    throw badInput(asArgument(cause instanceof Error ? cause.message : 'An argument is not valid'));
  }
}
