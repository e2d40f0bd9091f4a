/**
 * The GraphQL test files' one way to send an operation (a POST to
 * /api/graphql on a test context, with its status, headers and parsed body)
 * and to build selections of whole types by introspection.
 */
import type { TestContext } from '../../helpers/app';

export interface Result<T = Record<string, any>> {
  data?: T | null;
  errors?: { message: string; extensions?: { code?: string } }[];
}

export async function postGraphql<T = Record<string, any>>(on: TestContext, query: string, variables: Record<string, unknown> = {}, headers: Record<string, string> = {}): Promise<{ status: number; body: Result<T>; headers: Headers }> {
  const response = await on.request('/api/graphql', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ query, variables }) });
  return { status: response.status, headers: response.headers, body: (await response.json()) as Result<T> };
}

interface TypeRef {
  kind: string;
  name: string | null;
  ofType?: TypeRef | null;
}
const namedOf = (t: TypeRef): TypeRef => (t.ofType ? namedOf(t.ofType) : t);

/** The named type of a Query field, by introspection. */
export async function typeOf(on: TestContext, field: string): Promise<string | null> {
  const { body } = await postGraphql<{ __schema: { queryType: { fields: { name: string; type: TypeRef }[] } } }>(on, `{ __schema { queryType { fields { name type { kind name ofType { kind name } } } } } }`);
  const f = body.data!.__schema.queryType.fields.find((x) => x.name === field);
  return f ? namedOf(f.type).name : null;
}

/** Every field of the REST answer asked for, to compare whole answers: the schema's fields one level per type. */
export async function selectionOf(on: TestContext, typeName: string, depth = 6): Promise<string> {
  const { body } = await postGraphql<{ __type: { fields: { name: string; type: TypeRef }[] } }>(on, `query($n: String!) { __type(name: $n) { fields { name type { ...T } } } } fragment T on __Type { kind name ofType { kind name ofType { kind name ofType { kind name } } } }`, { n: typeName });
  const fields = body.data!.__type.fields;
  const parts: string[] = [];
  for (const f of fields) {
    const named = namedOf(f.type);
    if (named.kind === 'OBJECT') {
      if (depth === 0 || ['snapshot', 'earnings'].includes(f.name)) continue;
      parts.push(`${f.name} { ${await selectionOf(on, named.name!, depth - 1)} }`);
    } else parts.push(f.name);
  }
  return parts.join(' ');
}

/** A REST answer with the fields GraphQL leaves out (absent optionals) as null, for comparing. */
export function withNulls(rest: unknown, gq: unknown): unknown {
  if (Array.isArray(gq) && Array.isArray(rest)) return rest.map((r, i) => withNulls(r, gq[i]));
  if (gq && typeof gq === 'object' && rest && typeof rest === 'object' && !Array.isArray(gq)) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(gq)) out[key] = key in (rest as object) ? withNulls((rest as Record<string, unknown>)[key], (gq as Record<string, unknown>)[key]) : null;
    return out;
  }
  return rest;
}
