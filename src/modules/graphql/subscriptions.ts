/**
 * @module modules/graphql/subscriptions
 * The subscriptions, fed by the event bus /api/stream reads: new breakouts
 * and state changes for anyone, and the caller's own dispatched alerts (with
 * the rule) for a caller whom listing their alert rules admits.
 */
import { Repeater } from 'graphql-yoga';
import type { GraphQLFieldConfig, GraphQLFieldConfigMap } from 'graphql';
import { accessOf } from '../../auth';
import { AlertDispatchedEvent, BreakoutNewEvent, StateChangeEvent } from '../../domain/events';
import type { BusEvents, Channel } from '../../stream/bus';
import { ownerAlert } from '../../stream/visibility';
import type { GraphQLContext } from './context';
import { graphQLError } from './errors';
import type { GraphQLTypes } from './types';

/** The subscription to the caller's own dispatched alerts needs what listing their alert rules needs. */
const ALERT_RULES_ROUTE = 'GET /api/alerts/v2';

type Subscription = Pick<GraphQLFieldConfig<unknown, GraphQLContext>, 'subscribe' | 'resolve'>;

/** A channel's events as JSON, those `filter` shows the caller (undefined: not shown). */
function subscription<C extends Channel>(channel: C, filter: (payload: BusEvents[C], ctx: GraphQLContext) => unknown | undefined): Subscription {
  return {
    subscribe: (_root, _args, ctx) =>
      new Repeater<unknown>(async (push, stop) => {
        await ctx.services.bus.open(1, 1);
        const off = ctx.services.bus.subscribe(channel, (payload) => {
          const shown = filter(payload, ctx);
          if (shown !== undefined) void push(JSON.parse(JSON.stringify(shown)));
        });
        await stop;
        off();
      }),
    resolve: (payload: unknown) => payload,
  };
}

/** The caller's own dispatched alerts, once the alert rules' row of the authorisation table admits the caller. */
function ownAlerts(): Subscription {
  const { subscribe } = subscription('alerts.dispatched', (p, ctx) => (p.userId !== undefined && p.userId === ctx.caller?.userId ? ownerAlert(p) : undefined));
  return {
    subscribe: async (root, args, ctx, info) => {
      try {
        await ctx.principal(accessOf(ALERT_RULES_ROUTE)!);
      } catch (error) {
        throw graphQLError(error);
      }
      return subscribe!(root, args, ctx, info);
    },
    resolve: (payload: unknown) => payload,
  };
}

export function subscriptionFields(types: GraphQLTypes): GraphQLFieldConfigMap<unknown, GraphQLContext> {
  return {
    breakoutNew: { type: types.output(BreakoutNewEvent, 'BreakoutNewEvent'), description: 'breakouts.new, as GET /api/stream sends it', ...subscription('breakouts.new', (p) => p) },
    breakoutStateChange: { type: types.output(StateChangeEvent, 'StateChangeEvent'), description: 'breakouts.state_change, as GET /api/stream sends it', ...subscription('breakouts.state_change', (p) => p) },
    alertDispatched: {
      type: types.output(AlertDispatchedEvent, 'AlertDispatchedEvent'),
      description: "alerts.dispatched of the caller's own rules (with the rule), as its owner's /api/stream sends them; needs a credential",
      ...ownAlerts(),
    },
  };
}
