/**
 * The GraphQL fuzzer: for every root field of a schema (queries and
 * mutations), documents that call it with generated arguments — each argument
 * absent, given inline as a literal, or given as a variable declared with the
 * argument's own type (or, now and then, as `JSON`), its value drawn from the
 * REST parameter's schema (valid) or from the hostile values of the REST
 * fuzzer and any JSON at all — sent as one POST and checked:
 *
 * 1. the status is below 500 and the body is JSON;
 * 2. no error is INTERNAL_SERVER_ERROR, every error has an `extensions.code`
 *    of the closed set below, and none carries a stack trace;
 * 3. a refusal of the request itself (4xx) is the Error shape.
 *
 * @example
 * const fuzzer = createGraphqlFuzzer(buildSchema(), ctx.request, { argSchema: (field, arg) => QUERIES[field]?.args.properties[arg] });
 * await fc.assert(fuzzer.property('ledger', 'query'), { seed: 1, numRuns: 25 });
 */
import fc from 'fast-check';
import { getNamedType, isListType, isNonNullType, isObjectType, type GraphQLArgument, type GraphQLField, type GraphQLInputType, type GraphQLSchema } from 'graphql';
import { hostileValue, valueOf } from './arbitrary';
import type { Schema } from '../helpers/openapi';

/** The codes a GraphQL error may carry here (graphql/model's list and graphql-yoga's own). */
export const ERROR_CODES = new Set(['BAD_USER_INPUT', 'UNAUTHENTICATED', 'FORBIDDEN', 'NOT_FOUND', 'CONFLICT', 'GONE', 'PAYLOAD_TOO_LARGE', 'QUERY_TOO_COSTLY', 'RATE_LIMITED', 'UNAVAILABLE', 'UPSTREAM_ERROR', 'AI_UNAVAILABLE', 'GRAPHQL_PARSE_FAILED', 'GRAPHQL_VALIDATION_FAILED', 'PERSISTED_QUERY_NOT_FOUND']);

type Kind = 'query' | 'mutation';
/** How one argument is given. */
type Given = { how: 'absent' } | { how: 'inline'; value: unknown } | { how: 'variable'; value: unknown; declared: string };

export interface GraphqlFuzzerOptions {
  /** The REST parameter's schema an argument is checked by (for valid values), if it has one. */
  argSchema(field: string, arg: string): unknown;
  /** The headers that sign a request in for `field` (read at each request), or none. */
  credentials?(field: string): Record<string, string> | undefined;
}

export interface GraphqlFuzzer {
  fields(kind: Kind): string[];
  property(field: string, kind: Kind): fc.IAsyncProperty<[Given[]]>;
  /** Error codes seen, by code. */
  codes: Map<string, number>;
  sent(): number;
}

/** A JS value as a GraphQL literal (strings as JSON writes them, which GraphQL reads alike; object keys that are not names dropped). */
function literal(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[${value.map(literal).join(', ')}]`;
  const entries = Object.entries(value as Record<string, unknown>).filter(([k]) => /^[_A-Za-z][_A-Za-z0-9]*$/.test(k));
  return `{${entries.map(([k, v]) => `${k}: ${literal(v)}`).join(', ')}}`;
}

/** Numbers at the edges of every range a parameter or GraphQL's Int has. */
const edgeNumbers = fc.constantFrom(0, -1, 1, 2 ** 31 - 1, -(2 ** 31), 2 ** 31, 2 ** 53, -(2 ** 53), 1e308, -1e308, 0.5, -0.0, 1e-9);

/** Any value a careless or hostile client might send for an argument. */
const hostileJson: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostileValue },
  { weight: 2, arbitrary: edgeNumbers },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
  { weight: 1, arbitrary: fc.constantFrom(null, true, false, [], {}, [null], { __proto__: { polluted: true } }, ['\u0000'], { a: '\u0000' }) },
);

const resolveLocal = (schema: unknown) => schema as Schema;

export function createGraphqlFuzzer(schema: GraphQLSchema, handle: (path: string, init?: RequestInit) => Promise<Response>, options: GraphqlFuzzerOptions): GraphqlFuzzer {
  const codes = new Map<string, number>();
  let sent = 0;
  const rootOf = (kind: Kind) => (kind === 'query' ? schema.getQueryType() : schema.getMutationType())!;

  /**
   * Values of an argument's own GraphQL type (so most documents pass
   * validation and reach the resolver, where the REST schema judges them):
   * valid ones from the REST parameter's schema (its number, where Elysia
   * also takes decimal text), and hostile ones of the same type — integers at
   * every edge of 32 bits, any finite float, hostile strings, lists of them,
   * any JSON for a JSON argument.
   */
  function typed(type: GraphQLInputType, restSchema: unknown): fc.Arbitrary<unknown> {
    const inner = isNonNullType(type) ? type.ofType : type;
    if (isListType(inner)) return fc.array(typed(inner.ofType as GraphQLInputType, (restSchema as Schema | undefined)?.items), { maxLength: 4 });
    const rest = restSchema as Schema | undefined;
    const number = Array.isArray(rest?.anyOf) ? (rest.anyOf as Schema[]).find((m) => m.type === 'integer' || m.type === 'number') : undefined;
    const valid = rest ? valueOf(number ?? rest, resolveLocal, 3) : undefined;
    const withValid = (hostile: fc.Arbitrary<unknown>) => (valid ? fc.oneof({ weight: 3, arbitrary: valid }, { weight: 2, arbitrary: hostile }) : hostile);
    switch ((inner as { name?: string }).name) {
      case 'Int':
        return withValid(fc.oneof(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), fc.constantFrom(0, -1, 1, 2 ** 31 - 1, -(2 ** 31))));
      case 'Float':
        return withValid(fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom(0, -1, 1e308, -1e308, 1e-300, 2 ** 53 + 1)));
      case 'Boolean':
        return fc.boolean();
      case 'String':
        return withValid(hostileValue);
      default:
        return withValid(hostileJson);
    }
  }

  function argument(field: string, arg: GraphQLArgument): fc.Arbitrary<Given> {
    const restSchema = options.argSchema(field, arg.name);
    const ofType = typed(arg.type, restSchema);
    const declared = String(arg.type);
    return fc.oneof(
      { weight: isNonNullType(arg.type) ? 1 : 4, arbitrary: fc.constant<Given>({ how: 'absent' }) },
      { weight: 4, arbitrary: ofType.map((v): Given => ({ how: 'inline', value: v })) },
      { weight: 6, arbitrary: ofType.map((v): Given => ({ how: 'variable', value: v, declared })) },
      // Mistyped: any value at all, inline or as a variable of its type or of JSON (refused by validation or coercion).
      { weight: 1, arbitrary: hostileJson.map((v): Given => ({ how: 'inline', value: v })) },
      { weight: 1, arbitrary: fc.tuple(hostileJson, fc.constantFrom(declared, 'JSON')).map(([v, d]): Given => ({ how: 'variable', value: v, declared: d })) },
    );
  }

  /** The document and variables calling `field` with the arguments as given. */
  function document(kind: Kind, field: GraphQLField<unknown, unknown>, given: Given[]): { query: string; variables: Record<string, unknown> } {
    const variables: Record<string, unknown> = {};
    const definitions: string[] = [];
    const args: string[] = [];
    field.args.forEach((arg, i) => {
      const g = given[i]!;
      if (g.how === 'absent') return;
      if (g.how === 'inline') args.push(`${arg.name}: ${literal(g.value)}`);
      else {
        definitions.push(`$${arg.name}: ${g.declared}`);
        variables[arg.name] = g.value;
        args.push(`${arg.name}: $${arg.name}`);
      }
    });
    const named = getNamedType(field.type);
    const selection = isObjectType(named) ? ' { __typename }' : '';
    const head = definitions.length ? `${kind} Fuzz(${definitions.join(', ')})` : kind;
    return { query: `${head} { ${field.name}${args.length ? `(${args.join(', ')})` : ''}${selection} }`, variables };
  }

  async function check(kind: Kind, field: GraphQLField<unknown, unknown>, given: Given[]): Promise<void> {
    const body = document(kind, field, given);
    const headers: Record<string, string> = { 'content-type': 'application/json', ...(options.credentials?.(field.name) ?? {}) };
    const response = await handle('/api/graphql', { method: 'POST', headers, body: JSON.stringify(body) });
    sent++;
    const text = await response.text();
    const fail = (why: string) => {
      throw new Error(`${kind} ${field.name}: ${why}\n  sent: ${JSON.stringify(body).slice(0, 600)}\n  answered ${response.status}: ${text.slice(0, 400)}`);
    };
    if (response.status >= 500) fail(`status ${response.status}`);
    let parsed: { errors?: { message?: unknown; extensions?: { code?: unknown } }[]; error?: unknown; code?: unknown; requestId?: unknown };
    try {
      parsed = JSON.parse(text);
    } catch {
      return fail('a body that is not JSON');
    }
    if (text.includes('    at ') || text.includes('.ts:')) fail('a stack trace in the answer');
    if (response.status >= 400) {
      if (typeof parsed.error !== 'string' || typeof parsed.code !== 'string' || typeof parsed.requestId !== 'string') fail('a refusal that is not the Error shape');
      return;
    }
    for (const error of parsed.errors ?? []) {
      const code = error.extensions?.code;
      if (typeof code !== 'string') fail(`an error without a code: ${String(error.message)}`);
      codes.set(code as string, (codes.get(code as string) ?? 0) + 1);
      if (code === 'INTERNAL_SERVER_ERROR') fail(`INTERNAL_SERVER_ERROR: ${String(error.message)}`);
      if (!ERROR_CODES.has(code as string)) fail(`an error code outside the closed set: ${String(code)}`);
    }
  }

  return {
    fields: (kind) => Object.keys(rootOf(kind).getFields()),
    property(name, kind) {
      const field = rootOf(kind).getFields()[name]!;
      const arbitrary = field.args.length ? fc.tuple(...field.args.map((arg) => argument(name, arg))) : fc.constant<Given[]>([]);
      return fc.asyncProperty(arbitrary, (given) => check(kind, field, given));
    },
    codes,
    sent: () => sent,
  };
}

