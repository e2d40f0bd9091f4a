/** @module modules/options — the Options tag: options strategy analysis for a breakout plan. */
import { Elysia } from 'elysia';
import type { Services } from '../../services';
import { withErrors } from '../params';
import { AnalyzeQuery, AnalyzeResponse } from './model';
import { analyzeOptions, IV_RANK_DEAR } from './service';

export function optionsModule(services: Services) {
  return new Elysia({ name: 'breakline/options' }).get('/api/options/analyze', ({ query }) => analyzeOptions(services.marketData, services.pool, query), {
    query: AnalyzeQuery,
    response: withErrors(AnalyzeResponse, 400, 404, 429),
    detail: {
      tags: ['Options'],
      summary: 'Options for a breakout plan',
      description: `Black–Scholes prices and greeks (per share; × 100 a contract) of calls (direction=long) or puts (direction=short, additive) at the listed strikes around the trigger and at the target, for \`expiryDays\`, half and twice it; each one's value at the target and at the stop at the expected time to target (the median driftless first-passage time), reward/risk, breakeven and the chance of finishing beyond it; the debit spread from the trigger strike to the target strike; the stock's reward/risk; the chances of touching target and stop before expiry and of reaching the target first. \`recommendation\`: stock when the target is unlikely to be reached before the longest expiry; a vertical debit spread when premium is dear (IV rank ≥ ${IV_RANK_DEAR} or earnings before expiry) and it returns at least its risk; else the best long call/put when it beats 1 and the stock; else the spread or the stock — with the reasoning. \`ivCrush\` warns when a report falls before expiry. \`inputs\` echoes the effective inputs (stop defaults to half the target distance on the other side of the trigger). 400 for a non-numeric or inconsistent trigger/target/stop, a bad direction, iv outside (0, 5], ivRank outside 0–100, expiryDays outside 1–1095; 404 for an unknown symbol.`,
    },
  });
}
