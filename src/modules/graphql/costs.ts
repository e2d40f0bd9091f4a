/**
 * @module modules/graphql/costs
 * What a GraphQL operation costs, from the rate-limit class of each root
 * field's REST route (plugins/rate-limit's `costly` option, as the route
 * table publishes it; graphql/operations names each field's route). One
 * measure for two checks, both made before execution:
 *
 * - its **price**, held against the per-request ceiling
 *   GRAPHQL_MAX_COST_PER_TIER: each field 1, times the sizes of the lists
 *   around it (a field's `first` or `limit` argument; a variable counts as the
 *   largest size), each root field ROOT_FIELD_COST more, and a root field of a
 *   quota class (costly, explain) CLASS_FIELD_COST instead;
 * - its **charge** against the rate limits: a unit of the ordinary quota for
 *   every root field, and a unit of its class's quota for every root field of a
 *   class, aliases and fragments included — the REST requests it stands for.
 *
 * @example
 * const costs = new FieldCosts((field, args) => (field === 'ledgerVerification' ? 'costly' : undefined));
 * costs.of(parse('{ a: ledgerVerification { ok } b: ledgerVerification { ok } }')); // => [{ price: 1002, charge: { general: 2, costly: 2, explain: 0 }, … }]
 */
import { Kind, valueFromASTUntyped, type DocumentNode, type FieldNode, type FragmentDefinitionNode, type OperationDefinitionNode, type SelectionSetNode } from 'graphql';
import type { QuotaClassName } from '../../plugins/rate-limit';

/** What a list field costs per item when it names no size (`first`/`limit`), and the most it may name. */
const DEFAULT_LIST_SIZE = 20;
const MAX_LIST_SIZE = 100;
/** A root field calls a service (a database read, a scan): it weighs more than a field of its answer. */
export const ROOT_FIELD_COST = 10;
/** A root field whose REST route is in a quota class (a replay, a universe scan, a verification): fifty plain ones. */
export const CLASS_FIELD_COST = 500;

/** The app's route table (method, path, and the `detail` each route published): where a field's REST route says its rate-limit class. */
export type RouteTable = () => readonly { method: string; path: string; hooks?: { detail?: unknown } }[];

/** The class a root field counts in, given its arguments' values (undefined: only the ordinary quota). */
export type ClassOf = (field: string, args: Readonly<Record<string, unknown>>) => QuotaClassName | undefined;

export interface OperationCost {
  node: OperationDefinitionNode;
  price: number;
  /** Units of each quota: `general` one per root field, each class one per root field of it. */
  charge: Record<'general' | QuotaClassName, number>;
}

type Fragments = (name: string) => FragmentDefinitionNode | undefined;

export class FieldCosts {
  constructor(private readonly classOf: ClassOf) {}

  /** The cost of each operation of a document; `variables` give the values of variable arguments (absent: a variable counts as given). */
  of(document: DocumentNode, variables?: Readonly<Record<string, unknown>> | null): OperationCost[] {
    const byName = new Map(document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]));
    const fragments: Fragments = (name) => byName.get(name);
    return document.definitions
      .filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)
      .map((node) => {
        const charge = { general: 0, costly: 0, explain: 0 };
        const price = this.price(node.selectionSet, fragments, variables, 0, new Set(), charge);
        return { node, price, charge };
      });
  }

  /** A document's price: its costliest operation's. */
  priceOf(document: DocumentNode): number {
    return Math.max(0, ...this.of(document).map((o) => o.price));
  }

  private price(selectionSet: SelectionSetNode, fragments: Fragments, variables: Readonly<Record<string, unknown>> | null | undefined, depth: number, seen: Set<string>, charge: OperationCost['charge']): number {
    let price = 0;
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD) {
        if (selection.name.value.startsWith('__')) continue;
        const inner = selection.selectionSet ? this.price(selection.selectionSet, fragments, variables, depth + 1, seen, charge) : 0;
        let own = 1;
        if (depth === 0) {
          const quotaClass = this.classOf(selection.name.value, argumentValues(selection, variables));
          charge.general++;
          if (quotaClass) charge[quotaClass]++;
          own = quotaClass ? CLASS_FIELD_COST : ROOT_FIELD_COST;
        }
        price += own + Math.max(listSize(selection), 1) * inner;
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        price += this.price(selection.selectionSet, fragments, variables, depth, seen, charge);
      } else {
        const name = selection.name.value;
        const fragment = fragments(name);
        if (!fragment || seen.has(name)) continue;
        price += this.price(fragment.selectionSet, fragments, variables, depth, new Set([...seen, name]), charge);
      }
    }
    return price;
  }
}

/** The size of the list a field answers: its `first` or `limit` (a variable: the most allowed), `signals` 20 by default, else 1. */
function listSize(field: FieldNode): number {
  const sizeArg = field.arguments?.find((a) => a.name.value === 'first' || a.name.value === 'limit');
  if (!sizeArg) return field.name.value === 'signals' ? DEFAULT_LIST_SIZE : 1;
  return sizeArg.value.kind === Kind.INT ? Math.min(Number(sizeArg.value.value), MAX_LIST_SIZE) : MAX_LIST_SIZE;
}

/** A field's arguments as values: literals as they are, variables from `variables` (without them, a variable counts as given). */
function argumentValues(field: FieldNode, variables: Readonly<Record<string, unknown>> | null | undefined): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const arg of field.arguments ?? []) {
    values[arg.name.value] = arg.value.kind === Kind.VARIABLE && !variables ? true : valueFromASTUntyped(arg.value, variables ?? undefined);
  }
  return values;
}
