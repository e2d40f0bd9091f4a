/**
 * The GraphQL arguments as the REST parameters declare them (issue 31): a
 * parameter the OpenAPI document marks required and gives no default is a
 * non-null argument, and a REST default is the argument's GraphQL default
 * value, as introspection over /api/graphql shows them; a document leaving a
 * required argument out is a validation error (GraphQL over HTTP: 400 with
 * `errors` and no `data` under application/graphql-response+json). A REST
 * body object is an input object type, its required fields non-null too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { MUTATIONS, QUERIES } from '../../../src/modules/graphql/operations';
import { createTestContext, type TestContext } from '../../helpers/app';
import { operations, resolve, servedDocument, type OpenApiDocument, type Schema } from '../../helpers/openapi';

let ctx: TestContext;
let doc: OpenApiDocument;
beforeAll(async () => {
  ctx = await createTestContext();
  doc = await servedDocument(ctx.request);
});
afterAll(() => ctx.close());

interface IntrospectedArg {
  name: string;
  defaultValue: string | null;
  type: { kind: string };
}
interface IntrospectedField {
  name: string;
  args: IntrospectedArg[];
}

async function introspect(): Promise<Map<string, IntrospectedField>> {
  const fields = '{ fields { name args { name defaultValue type { kind } } } }';
  const response = await ctx.request('/api/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: `{ __schema { queryType ${fields} mutationType ${fields} } }` }),
  });
  const { data } = (await response.json()) as { data: { __schema: Record<'queryType' | 'mutationType', { fields: IntrospectedField[] }> } };
  return new Map([...data.__schema.queryType.fields, ...data.__schema.mutationType.fields].map((f) => [f.name, f]));
}

/** The REST side of each argument of a route: required, and its default, from the served OpenAPI document (parameters and JSON body). */
function restParameters(route: string): Map<string, { required: boolean; default: unknown }> {
  const [method, path] = route.split(' ') as [string, string];
  const openApiPath = path.replace(/:(\w+)/g, '{$1}');
  const op = operations(doc).find((o) => o.method === method.toLowerCase() && o.path === openApiPath);
  if (!op) throw new Error(`${route} is not in the OpenAPI document`);
  const found = new Map<string, { required: boolean; default: unknown }>();
  for (const p of op.parameters) if (p.in === 'query' || p.in === 'path') found.set(p.name, { required: p.required === true, default: p.schema.default });
  const body = op.requestBody ? resolve<Schema>(doc, op.requestBody.content['application/json']?.schema) : undefined;
  const required = new Set((body?.required as string[] | undefined) ?? []);
  for (const [name, schema] of Object.entries((body?.properties as Record<string, Schema> | undefined) ?? {})) found.set(name, { required: required.has(name), default: schema.default });
  return found;
}

describe('GraphQL arguments', () => {
  it('are non-null exactly where the REST parameter is required without a default, and carry the REST default', async () => {
    const served = await introspect();
    let nonNull = 0;
    let defaults = 0;
    for (const [field, op] of Object.entries({ ...QUERIES, ...MUTATIONS })) {
      const rest = restParameters(op.route);
      for (const arg of served.get(field)!.args) {
        const parameter = rest.get(arg.name);
        expect({ field, arg: arg.name, inRest: parameter !== undefined }).toEqual({ field, arg: arg.name, inRest: true });
        const wanted = { required: parameter!.required && parameter!.default === undefined, defaultValue: parameter!.default === undefined ? null : JSON.stringify(parameter!.default) };
        expect({ field, arg: arg.name, required: arg.type.kind === 'NON_NULL', defaultValue: arg.defaultValue }).toEqual({ field, arg: arg.name, ...wanted });
        if (wanted.required) nonNull++;
        if (wanted.defaultValue !== null) defaults++;
      }
    }
    // The REST models' count on 2026-11-28 (each agreeing with its OpenAPI parameter above): so the check above cannot pass by finding nothing.
    expect({ nonNull, defaults }).toEqual({ nonNull: 43, defaults: 50 });
  });

  it('gives the signals connection the REST defaults of /api/breakouts and its own page size', async () => {
    const signals = (await introspect()).get('signals')!;
    expect(Object.fromEntries(signals.args.map((a) => [a.name, a.defaultValue]))).toMatchObject({ timeframe: '"daily"', first: '20', asOf: null });
  });

  it('answers a document leaving a required argument out with a validation error: 400 and errors under application/graphql-response+json', async () => {
    const response = await ctx.request('/api/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
      body: JSON.stringify({ query: '{ snapshot { symbol } }' }),
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).not.toHaveProperty('data');
    expect(body).toMatchObject({ errors: [{ message: 'Field "snapshot" argument "symbol" of type "String!" is required, but it was not provided.', extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }] });
    const variable = await ctx.request('/api/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
      body: JSON.stringify({ query: 'query($month: String) { monthly(month: $month) { month } }' }),
    });
    expect(variable.status).toBe(400);
    expect(await variable.json()).toMatchObject({ errors: [{ extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }] });
  });

  it('takes a body object as an input object: an alert rule made with channels, and one whose webhook lacks its url refused by validation', async () => {
    const cookie = await ctx.sessionCookie('gql-args-pro', 'pro', 3600);
    const post = (query: string) =>
      ctx.request('/api/graphql', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json', cookie }, body: JSON.stringify({ query }) });
    const made = await post('mutation { createAlertRule(name: "In app only", symbols: ["AAPL"], channels: { inApp: true }) { id channels { inApp webhook { url } } } }');
    expect(made.status).toBe(200);
    const body = (await made.json()) as { data: { createAlertRule: { id: string; channels: unknown } } };
    expect(body.data.createAlertRule.channels).toEqual({ inApp: true, webhook: null });
    const rest = await ctx.request(`/api/alerts/v2/${body.data.createAlertRule.id}`, { headers: { cookie } });
    expect(((await rest.json()) as { channels: unknown }).channels).toEqual({ inApp: true, webhook: null });
    const refused = await post('mutation { createAlertRule(name: "No url", channels: { webhook: { rotateSecret: true } }) { id } }');
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ errors: [{ message: 'Field "CreateAlertRuleChannelsWebhookInput.url" of required type "String!" was not provided.', extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }] });
  });
});
