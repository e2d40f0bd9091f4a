/**
 * The served OpenAPI document, read the way a client generator reads it, and
 * ajv (JSON Schema 2020-12, strict mode, our strict date formats) over its
 * schemas: `operations()` lists every operation, `validateResponse()` checks a
 * live answer against what the operation declares for its status.
 */
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import { isDate, isDateTime } from '../../src/domain/formats';

export type Schema = { [keyword: string]: unknown };

export interface Parameter {
  name: string;
  in: 'query' | 'path' | 'header' | 'cookie';
  required: boolean;
  schema: Schema;
}

export interface Operation {
  method: string;
  path: string;
  operationId: string;
  parameters: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, { schema: Schema }> };
  /** status → media type → schema (`default` for undeclared statuses). */
  responses: Record<string, Record<string, Schema>>;
  security: unknown[];
  raw: Schema;
}

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string };
  servers?: { url: string }[];
  paths: Record<string, Record<string, Schema>>;
  components: { schemas: Record<string, Schema>; parameters?: Record<string, Schema>; headers?: Record<string, Schema> };
}

const isObject = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Follows a local `$ref` (`#/components/…`) in the document. */
export function resolve<T>(doc: OpenApiDocument, value: unknown): T {
  if (isObject(value) && typeof value.$ref === 'string' && value.$ref.startsWith('#/')) {
    let target: unknown = doc;
    for (const part of value.$ref.slice(2).split('/')) target = isObject(target) ? target[part] : undefined;
    if (target === undefined) throw new Error(`unresolved $ref ${value.$ref}`);
    return resolve<T>(doc, target);
  }
  return value as T;
}

/** Every operation of the document, its parameters and responses resolved. */
export function operations(doc: OpenApiDocument): Operation[] {
  const list: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, raw] of Object.entries(item)) {
      if (!isObject(raw)) continue;
      const parameters = (Array.isArray(raw.parameters) ? raw.parameters : []).map((p) => resolve<Parameter>(doc, p));
      const responses: Operation['responses'] = {};
      for (const [status, response] of Object.entries(isObject(raw.responses) ? raw.responses : {})) {
        const content = resolve<{ content?: Record<string, { schema: Schema }> }>(doc, response).content ?? {};
        responses[status] = Object.fromEntries(Object.entries(content).map(([type, media]) => [type, media.schema]));
      }
      list.push({
        method,
        path,
        operationId: String(raw.operationId),
        parameters,
        requestBody: raw.requestBody ? resolve<Operation['requestBody']>(doc, raw.requestBody) : undefined,
        responses,
        security: Array.isArray(raw.security) ? raw.security : [],
        raw,
      });
    }
  }
  return list;
}

/** Rewrites `#/components/schemas/X` to the id ajv knows the components under. */
function rebase(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(rebase);
  if (!isObject(schema)) return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [key, key === '$ref' && typeof value === 'string' ? value.replace('#/components/schemas/', 'components#/$defs/') : rebase(value)]),
  );
}

/**
 * ajv in strict mode over the document's schemas: unknown keywords, unknown
 * formats and loose types are compile errors, as in any strict client.
 */
export class DocumentValidator {
  readonly ajv: Ajv2020;
  /** Compiled once per distinct schema (the document repeats e.g. the Error reference in every operation). */
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(readonly doc: OpenApiDocument) {
    this.ajv = new Ajv2020({ strict: true, allErrors: false, validateFormats: true });
    this.ajv.addFormat('date', isDate);
    this.ajv.addFormat('date-time', isDateTime);
    this.ajv.addSchema({ $id: 'components', $defs: rebase(doc.components.schemas) });
  }

  /** Compiles one schema of the document (throws on anything strict mode refuses). */
  compile(schema: Schema): ValidateFunction {
    const key = JSON.stringify(schema);
    let validate = this.compiled.get(key);
    if (!validate) {
      validate = this.ajv.compile(rebase(schema) as Schema);
      this.compiled.set(key, validate);
    }
    return validate;
  }

  /** What is wrong with a response of `operation`, or null when it matches the declared schema of its status. */
  validateResponse(operation: Operation, status: number, contentType: string | null, body: unknown): string | null {
    const declared = operation.responses[String(status)] ?? operation.responses.default;
    if (!declared) return `status ${status} is not declared (and there is no default response)`;
    const mediaType = (contentType ?? '').split(';')[0]!.trim();
    const schema = declared[mediaType];
    if (!schema) return `media type '${mediaType}' is not declared for ${status} (declared: ${Object.keys(declared).join(', ') || 'none'})`;
    const validate = this.compile(schema);
    if (validate(body)) return null;
    return this.ajv.errorsText(validate.errors, { dataVar: 'body' });
  }
}

/** The document as the app serves it. */
export async function servedDocument(request: (path: string) => Promise<Response>): Promise<OpenApiDocument> {
  const response = await request('/openapi/json');
  if (response.status !== 200) throw new Error(`GET /openapi/json → ${response.status}`);
  return (await response.json()) as OpenApiDocument;
}
