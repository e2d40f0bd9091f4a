/** @module modules/fundamentals — the Fundamentals tag: the earnings calendar and the share float. */
import { Elysia } from 'elysia';
import { readPage } from '../../pagination';
import type { Services } from '../../services';
import { withErrors } from '../params';
import { EarningsQuery, EarningsResponse, FloatQuery, FloatResponse } from './model';
import { earnings, floatOf, HOLDING_WINDOW_TRADING_DAYS } from './service';

export function fundamentalsModule(services: Services) {
  const { marketData } = services;
  return new Elysia({ name: 'breakline/fundamentals' })
    .get('/api/earnings', ({ query }) => earnings(marketData, query.symbol, readPage(query)), {
      query: EarningsQuery,
      response: withErrors(EarningsResponse, 400, 404, 429),
      detail: {
        tags: ['Fundamentals'],
        summary: 'Earnings calendar and proximity',
        description: `Past reports (estimate, actual, surprise, and the price reaction of the session that first traded on them: the report day before the open, the next session after the close) and scheduled ones up to a year ahead, paginated (\`order=desc\`, the default, lists the latest date first; \`calendar\` holds the same page as \`items\`). \`proximity\`: trading days to the next report, whether it falls inside a typical ${HOLDING_WINDOW_TRADING_DAYS}-session holding window, and whether it is close enough (≤ 5 trading days) for the signal engine to block alerts. 404 for an unknown symbol or when no configured source provides earnings.`,
      },
    })
    .get('/api/float', ({ query }) => floatOf(marketData, query.symbol), {
      query: FloatQuery,
      response: withErrors(FloatResponse, 400, 404, 429),
      detail: {
        tags: ['Fundamentals'],
        summary: 'Share float and volume rotation',
        description:
          '`float`: shares outstanding and free float with their date and source. `ratio`: average daily volume of the last 50 complete sessions ÷ free float (the share of the float traded a day); `daysToRotate` = 1 ÷ ratio. `classification` from days to rotate: extreme ≤ 1, very high ≤ 10, high ≤ 50, normal ≤ 250, low ≤ 1000, very low beyond (`thresholds`). `caveat` says plainly when figures are simulated, estimated, stale (older than 120 days) or missing; without a float source the share counts are null. 404 for an unknown symbol.',
      },
    });
}
