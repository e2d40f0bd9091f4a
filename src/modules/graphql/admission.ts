/**
 * @module modules/graphql/admission
 * What is checked of an operation before it executes, per caller: its price
 * against the tier's ceiling (QUERY_TOO_COSTLY) and its charge against the
 * rate limits of its root fields' REST routes (RATE_LIMITED, 429), with
 * graphql/costs; and which requests yoga refused before execution (not
 * GraphQL over HTTP), which graphql/endpoint answers in the Error shape.
 */
import { getOperationAST, GraphQLError, NoSchemaIntrospectionCustomRule, type DocumentNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Principal } from '../../auth';
import type { ApiVersion, Config } from '../../config';
import type { Tier } from '../../domain/tiers';
import { AppError } from '../../errors';
import { classFromDetail, QUOTA_CLASSES, quotaClassOf, type CostlyWhen, type QuotaClassName } from '../../plugins/rate-limit';
import type { Services } from '../../services';
import type { AnswerSlot } from './answers';
import { FieldCosts, type OperationCost, type RouteTable } from './costs';
import type { GraphQLContext } from './context';
import { fieldRoute } from './schema';

/** Counts units of a quota for the request (the route's rate limiter); throws its 429 AppError past the quota. */
export type ChargeRequest = (quotaClass: 'general' | QuotaClassName, units: number) => void | Promise<void>;

/** The per-request part of the context, handed to yoga by the route. */
export interface ServerContext {
  services: Services;
  apiVersion: ApiVersion;
  caller: Principal | null;
  principal: GraphQLContext['principal'];
  /** Where the answer is kept, for a request one may be kept for (graphql/answers). */
  answer?: AnswerSlot;
  charge: ChargeRequest;
  /** Shared by a request's operations: whether the ordinary unit the request already counted (plugins/rate-limit, before routing) has stood for a field. */
  counted: { request: boolean };
}

/** The cost error of a document whose costliest operation is over `limit`, or undefined. */
function costError(operations: OperationCost[], limit: number, tier: Tier | 'anonymous'): GraphQLError | undefined {
  const over = operations.find((o) => o.price > limit);
  if (!over) return undefined;
  return new GraphQLError(`Query cost ${over.price} exceeds the limit of ${limit} for ${tier === 'anonymous' ? 'anonymous callers' : `the ${tier} tier`}`, { nodes: [over.node], extensions: { code: 'QUERY_TOO_COSTLY', cost: over.price, limit } });
}

/** A refusal of the rate limiter as a GraphQL error: RATE_LIMITED, answered 429 with Retry-After (a batch: in its result). */
function rateLimited(error: AppError): GraphQLError {
  return new GraphQLError(error.message, { extensions: { code: 'RATE_LIMITED', http: { status: error.status, headers: error.headers } } });
}

/** Each root field's price and charge, its class its REST route's as the route table publishes it (read once, on the first GraphQL request). */
export function fieldCosts(routes: RouteTable): FieldCosts {
  let routeClasses: Map<string, CostlyWhen> | undefined;
  const routeClass = (route: string) => (routeClasses ??= new Map(routes().map((r) => [`${r.method} ${r.path}`, classFromDetail(r.hooks?.detail as Record<string, unknown> | undefined)]))).get(route) ?? false;
  return new FieldCosts((field, args) => {
    const route = fieldRoute(field);
    return route === undefined ? undefined : quotaClassOf(routeClass(route), args);
  });
}

type ExecutionArgs = { document: DocumentNode; contextValue: unknown; variableValues?: Readonly<Record<string, unknown>> | null; operationName?: string | null };

/** The yoga plugin that admits each execution (or refuses it with its errors), and the requests yoga refused before execution. */
export class Admission {
  /** Requests yoga refused before execution (not GraphQL over HTTP); the key goes with the request. */
  private readonly badRequests = new WeakSet<Request>();

  constructor(
    private readonly costs: FieldCosts,
    private readonly limits: Config['graphql'],
  ) {}

  /** Whether yoga refused the request before execution: its body is not a GraphQL request (or batch of them). */
  refused(request: Request): boolean {
    return this.badRequests.has(request);
  }

  plugin(): Plugin<ServerContext> {
    return {
      onResultProcess: ({ request, result }) => {
        // A batch with one such entry is refused whole: its body is not a list of GraphQL requests.
        const refused = (one: unknown) => !('data' in (one as object)) && ((one as { errors?: readonly GraphQLError[] }).errors ?? []).some((e) => e.extensions?.code === 'BAD_REQUEST');
        if (Array.isArray(result) ? result.some(refused) : refused(result)) this.badRequests.add(request);
      },
      // The same for every caller, so yoga may cache the validation.
      onValidate: ({ addValidationRule }) => {
        if (!this.limits.introspection) addValidationRule(NoSchemaIntrospectionCustomRule);
      },
      // Per caller (the tier's ceiling, the caller's quotas): checked before each execution, never cached.
      onExecute: ({ args, setResultAndStopExecution }) => this.admit(args, setResultAndStopExecution),
      onSubscribe: ({ args, setResultAndStopExecution }) => this.admit(args, setResultAndStopExecution),
    };
  }

  /**
   * An operation's price against the caller's ceiling (QUERY_TOO_COSTLY), then
   * its charge against the rate limits (RATE_LIMITED, 429): the ordinary
   * quota's units first (the request's own unit standing for its first
   * field), then each class's, so the headers describe the class's quota as a
   * REST answer of the class does.
   */
  private async admit(args: ExecutionArgs, refuse: (result: { errors: GraphQLError[] }) => void): Promise<void> {
    const ctx = args.contextValue as ServerContext;
    const tier = ctx.caller?.tier;
    const operations = this.costs.of(args.document, args.variableValues);
    const error = costError(operations, this.limits.maxCost[tier ?? 'free'], tier ?? 'anonymous');
    if (error) return refuse({ errors: [error] });
    const executed = getOperationAST(args.document, args.operationName ?? undefined);
    const charge = operations.find((o) => o.node === executed)?.charge;
    if (!charge) return;
    const general = charge.general - (ctx.counted.request ? 0 : 1);
    ctx.counted.request = true;
    try {
      await ctx.charge('general', general);
      for (const quotaClass of QUOTA_CLASSES) await ctx.charge(quotaClass, charge[quotaClass]);
    } catch (thrown) {
      if (thrown instanceof AppError && thrown.code === 'rate_limited') return refuse({ errors: [rateLimited(thrown)] });
      throw thrown;
    }
  }
}
