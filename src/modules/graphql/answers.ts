/**
 * @module modules/graphql/answers
 * Answers kept as sent for documents drawn from the latest persisted runs and
 * public data alone: a query whose root fields are `signals` and `breakouts`
 * (no `asOf` replay, no `symbols` scanned on demand, nothing of a signal read
 * per request: `snapshot`, `earnings`) and `__typename`. Such an answer
 * depends on the request as sent and on the latest run of each timeframe it
 * names, nothing else: it is kept by request (method, API version, Accept,
 * Content-Type, query string or body) in `services.graphql.answers`, with the
 * run ids read before it was executed, and served again while those runs are
 * still the latest (a new run makes it stale: it is dropped when next asked).
 *
 * What a request passes before yoga (the route's rate limit, the caller's
 * credential) it passes on a hit too; a hit needs the caller's tier to allow
 * the document's cost, and a persisted hash sent alone to be still held, so
 * a hit answers only what executing the request would. Only a 200 JSON answer
 * without `errors` of a single query is kept.
 *
 * @example
 * const answers = new Answers(services);
 * const slot = await answers.slotFor(request, '1.1.0'); // undefined: not a request an answer is kept for
 * const hit = slot && (await answers.hit(slot, costLimit)); // => { response, fields } | undefined
 */
import { getOperationAST, Kind, valueFromASTUntyped, type DocumentNode, type FieldNode, type FragmentDefinitionNode, type SelectionSetNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { ApiVersion } from '../../config';
import { TIMEFRAMES, type Timeframe } from '../../domain/signal';
import type { Services } from '../../services';
import { BreakoutsQuery } from '../signals/model';

/** Root fields whose answer is the latest persisted run's (with their arguments' exceptions below). */
const RUN_FIELDS = new Set(['signals', 'breakouts']);
/** Fields of a signal resolved per request from market data. */
const LIVE_FIELDS = new Set(['snapshot', 'earnings']);

/** A request an answer may be kept for: its key, filled during execution with what the answer was drawn from. */
export interface AnswerSlot {
  key: string;
  /** The sha256 the request sent without its query (automatic persisted queries). */
  persistedHash?: string;
  /** Executions begun (a batch has several: its answer is not kept). */
  executions: number;
  /** The runs read before execution, the cost and the root fields; absent when anything makes the answer unfit to keep. */
  drawnFrom?: { runs: [Timeframe, string][]; cost: number; fields: number };
}

/** The timeframes a document's answer is drawn from, or undefined when it depends on anything besides their latest runs. */
export function runTimeframes(document: DocumentNode, operationName: string | null | undefined, variables: Record<string, unknown> | undefined): Timeframe[] | undefined {
  const operation = getOperationAST(document, operationName);
  if (!operation || operation.operation !== 'query') return undefined;
  const fragments = new Map(document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]));
  const timeframes = new Set<Timeframe>();
  const roots = fieldsOf(operation.selectionSet, fragments);
  if (!roots) return undefined;
  for (const field of roots) {
    const name = field.name.value;
    if (name === '__typename') continue;
    if (!RUN_FIELDS.has(name) || touchesLive(field.selectionSet, fragments, new Set())) return undefined;
    const arg = (argName: string) => {
      const node = field.arguments?.find((a) => a.name.value === argName);
      return node ? valueFromASTUntyped(node.value, variables) : undefined;
    };
    if (arg('asOf') != null || arg('symbols') != null) return undefined;
    const timeframe = arg('timeframe') ?? BreakoutsQuery.properties.timeframe.default;
    const known = TIMEFRAMES.find((t) => t === timeframe);
    if (!known) return undefined;
    timeframes.add(known);
  }
  return [...timeframes];
}

/** The fields of a selection set, fragments spread (undefined when a fragment is missing). */
function fieldsOf(selectionSet: SelectionSetNode, fragments: Map<string, FragmentDefinitionNode>, seen = new Set<string>()): FieldNode[] | undefined {
  const fields: FieldNode[] = [];
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) fields.push(selection);
    else {
      let inner: SelectionSetNode;
      if (selection.kind === Kind.INLINE_FRAGMENT) inner = selection.selectionSet;
      else {
        const fragment = fragments.get(selection.name.value);
        if (!fragment || seen.has(fragment.name.value)) return undefined;
        inner = fragment.selectionSet;
        seen = new Set([...seen, fragment.name.value]);
      }
      const more = fieldsOf(inner, fragments, seen);
      if (!more) return undefined;
      fields.push(...more);
    }
  }
  return fields;
}

function touchesLive(selectionSet: SelectionSetNode | undefined, fragments: Map<string, FragmentDefinitionNode>, seen: Set<string>): boolean {
  if (!selectionSet) return false;
  const fields = fieldsOf(selectionSet, fragments, seen);
  if (!fields) return true;
  return fields.some((f) => LIVE_FIELDS.has(f.name.value) || touchesLive(f.selectionSet, fragments, seen));
}

const JSON_ANSWER = /^application\/(graphql-response\+)?json/;

export class Answers {
  constructor(private readonly services: Services) {}

  /**
   * The slot of a request an answer may be kept for (a GET, or a POST of JSON,
   * that does not ask for a stream), or undefined. A POST's body is read from
   * a clone: yoga reads the request itself.
   */
  async slotFor(request: Request, apiVersion: ApiVersion): Promise<AnswerSlot | undefined> {
    const accept = request.headers.get('accept') ?? '';
    if (accept.includes('text/event-stream') || accept.includes('multipart/')) return undefined;
    const contentType = request.headers.get('content-type') ?? '';
    let sent: string;
    if (request.method === 'GET') {
      const at = request.url.indexOf('?');
      sent = at < 0 ? '' : request.url.slice(at);
    } else if (request.method === 'POST' && contentType.startsWith('application/json')) {
      sent = await request.clone().text();
    } else return undefined;
    return { executions: 0, key: `${request.method}\n${apiVersion}\n${accept}\n${contentType}\n${sent}` };
  }

  /** The kept answer for the slot, when it is still the one executing the request would give a caller allowed `costLimit`, with its root fields (to be charged as an execution's). */
  async hit(slot: AnswerSlot, costLimit: number): Promise<{ response: Response; fields: number } | undefined> {
    const { answers, persistedQueries } = this.services.graphql;
    const answer = answers.get(slot.key);
    if (!answer || answer.cost > costLimit) return undefined;
    if (answer.persistedHash !== undefined && !persistedQueries.has(answer.persistedHash)) return undefined;
    const latest = await Promise.all(answer.runs.map(([timeframe]) => this.services.runs.latest(timeframe as Timeframe)));
    if (answer.runs.some(([, runId], i) => latest[i]?.run.id !== runId)) {
      answers.delete(slot.key);
      return undefined;
    }
    return { response: new Response(answer.body, { headers: { 'content-type': answer.contentType } }), fields: answer.fields };
  }

  /** Keeps the answer yoga gave for the slot when it may be kept; the response to send (its body read once). */
  async keep(slot: AnswerSlot, response: Response): Promise<Response> {
    const contentType = response.headers.get('content-type') ?? '';
    if (slot.executions !== 1 || !slot.drawnFrom || response.status !== 200 || !JSON_ANSWER.test(contentType)) return response;
    const body = new Uint8Array(await response.arrayBuffer());
    this.services.graphql.answers.set(slot.key, { runs: slot.drawnFrom.runs, cost: slot.drawnFrom.cost, fields: slot.drawnFrom.fields, persistedHash: slot.persistedHash, contentType, body });
    return new Response(body, { status: response.status, headers: response.headers });
  }

  /**
   * The yoga plugin that fills a request's slot: the persisted hash it sent
   * alone, and, for a single query drawn from latest runs alone, the run ids
   * read before execution, its cost and root fields (`costOf`); an execution with errors,
   * or a second one (a batch), unfits it.
   */
  plugin<C extends { answer?: AnswerSlot }>(costOf: (document: DocumentNode) => { cost: number; fields: number }): Plugin<C> {
    return {
      onParams: ({ params, context }) => {
        const slot = (context as C).answer;
        const hash = (params.extensions as { persistedQuery?: { sha256Hash?: unknown } } | undefined)?.persistedQuery?.sha256Hash;
        if (slot && typeof hash === 'string' && typeof params.query !== 'string') slot.persistedHash = hash;
      },
      onExecute: async ({ args }) => {
        const slot = (args.contextValue as C).answer;
        if (!slot || ++slot.executions > 1) return;
        const timeframes = runTimeframes(args.document, args.operationName, (args.variableValues ?? undefined) as Record<string, unknown> | undefined);
        if (!timeframes) return;
        const latest = await Promise.all(timeframes.map((timeframe) => this.services.runs.latest(timeframe)));
        if (latest.some((run) => run === undefined)) return;
        slot.drawnFrom = { runs: timeframes.map((timeframe, i): [Timeframe, string] => [timeframe, latest[i]!.run.id]), ...costOf(args.document) };
        return {
          onExecuteDone: ({ result }) => {
            if (Symbol.asyncIterator in result || result.errors?.length) slot.drawnFrom = undefined;
          },
        };
      },
    };
  }
}
