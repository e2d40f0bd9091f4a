/**
 * Loopback servers that speak the model vendors' wire formats, for tests and
 * benchmarks: the Anthropic Messages API (`POST /v1/messages`) and the
 * OpenAI chat-completions API (`POST /v1/chat/completions`, as OpenAI,
 * llama.cpp, vLLM and Ollama serve it). Each records every request it
 * receives and answers as its `script` says: a written answer, an HTTP error
 * (with headers such as `Retry-After`), a hang, or a body that is not JSON.
 *
 * `writeBullets(facts)` is the fake "model": it writes a plausible
 * explanation from the facts in the user message, copying their numbers.
 * Prompt caching is simulated like the vendors report it: the first request
 * with a given system prompt writes the cache, later ones read it.
 */
import type { Server } from 'bun';
import { ExplainFactsSchema, type ExplainFacts } from '../../src/ai/fact-schema';
import { storedAs } from '../../src/domain/check';

/** What the fake answers to one request. */
export type Reply =
  | { kind: 'answer'; bullets?: string[]; value?: unknown; text?: string; /** Answer only once this settles. */ after?: Promise<unknown> }
  | { kind: 'status'; status: number; body?: unknown; headers?: Record<string, string> }
  | { kind: 'hang' }
  | { kind: 'not_json' };

export interface RecordedCall {
  path: string;
  headers: Record<string, string>;
  body: Record<string, unknown>;
  /** The user message (the facts and any refusal note). */
  user: string;
  /** The facts the user message carried. */
  facts: Facts;
  at: number;
}

export interface FakeModelServer {
  url: string;
  calls: RecordedCall[];
  /** How it answers the next requests; `() => ({ kind: 'answer' })` writes bullets from the facts. */
  script: (call: RecordedCall, index: number) => Reply;
  stop(): void;
}

/** The facts a request carried, checked against their documented schema (null when they do not match it). */
type Facts = ExplainFacts | null;
const checkFacts = storedAs(ExplainFactsSchema);

const tokens = (text: string) => Math.ceil(text.length / 4);

function factsIn(user: string): Facts {
  const start = user.indexOf('{');
  const end = user.indexOf('\n\n', start);
  try {
    return checkFacts(JSON.parse(user.slice(start, end < 0 ? undefined : end)), 'facts in the user message');
  } catch {
    return null;
  }
}

function serve(handle: (call: RecordedCall, reply: Extract<Reply, { kind: 'answer' }>, cacheRead: boolean) => Response | Promise<Response>, path: string): FakeModelServer {
  const seenSystems = new Set<string>();
  const fake: FakeModelServer = {
    url: '',
    calls: [],
    script: () => ({ kind: 'answer' }),
    stop: () => server.stop(true),
  };
  const server: Server<undefined> = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    idleTimeout: 0,
    async fetch(request) {
      const url = new URL(request.url);
      if (request.method !== 'POST' || url.pathname !== path) return Response.json({ error: { message: `no route ${request.method} ${url.pathname}` } }, { status: 404 });
      const body = (await request.json()) as Record<string, unknown>;
      const messages = body.messages as { role: string; content: string }[];
      const user = messages.find((m) => m.role === 'user')!.content;
      const systemText = typeof body.system === 'string' ? body.system : JSON.stringify(body.system ?? messages.find((m) => m.role === 'system')?.content);
      const call: RecordedCall = { path: url.pathname, headers: Object.fromEntries(request.headers), body, user, facts: factsIn(user), at: Date.now() };
      fake.calls.push(call);
      const reply = fake.script(call, fake.calls.length - 1);
      if (reply.kind === 'hang') return new Promise<Response>(() => {});
      if (reply.kind === 'status') return Response.json(reply.body ?? { error: { message: `fake upstream error ${reply.status}` } }, { status: reply.status, headers: reply.headers });
      if (reply.kind === 'not_json') return new Response('<html>502 Bad Gateway</html>', { headers: { 'content-type': 'application/json' } });
      await reply.after;
      const cacheRead = seenSystems.has(systemText);
      seenSystems.add(systemText);
      return handle(call, reply, cacheRead);
    },
  });
  fake.url = `http://127.0.0.1:${server.port}`;
  return fake;
}

function answerValue(call: RecordedCall, reply: Extract<Reply, { kind: 'answer' }>): unknown {
  return reply.value ?? { bullets: reply.bullets ?? writeBullets(call.facts) };
}

/** Anthropic's Messages API: a forced tool call carries the answer; usage splits uncached, cache-write and cache-read input. */
export function fakeAnthropic(): FakeModelServer {
  return serve((call, reply, cacheRead) => {
    const systemTokens = tokens(JSON.stringify(call.body.system) + JSON.stringify(call.body.tools));
    const usage = {
      input_tokens: tokens(call.user),
      cache_creation_input_tokens: cacheRead ? 0 : systemTokens,
      cache_read_input_tokens: cacheRead ? systemTokens : 0,
      output_tokens: 180,
    };
    const tool = (call.body.tool_choice as { name: string }).name;
    const content = reply.text !== undefined ? [{ type: 'text', text: reply.text }] : [{ type: 'tool_use', id: 'toolu_01fake', name: tool, input: answerValue(call, reply) }];
    return Response.json({ id: 'msg_01fake', type: 'message', role: 'assistant', model: `${call.body.model}-20250929`, content, stop_reason: 'tool_use', stop_sequence: null, usage });
  }, '/v1/messages');
}

/** An OpenAI-compatible chat-completions server; `flavour: 'llama.cpp'` reports cache use in `timings` instead of `prompt_tokens_details`. */
export function fakeOpenAi(options: { flavour?: 'openai' | 'llama.cpp' } = {}): FakeModelServer {
  return serve((call, reply, cacheRead) => {
    const systemTokens = tokens(JSON.stringify((call.body.messages as { content: string }[])[0]!.content));
    const prompt = systemTokens + tokens(call.user);
    const cached = cacheRead ? systemTokens : 0;
    const content = reply.text ?? JSON.stringify(answerValue(call, reply));
    const base = { id: 'chatcmpl-fake', object: 'chat.completion', created: 1_763_000_000, model: String(call.body.model), choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] };
    if (options.flavour === 'llama.cpp') {
      return Response.json({ ...base, usage: { prompt_tokens: prompt - cached, completion_tokens: 170, total_tokens: prompt - cached + 170 }, timings: { cache_n: cached, prompt_n: prompt - cached, predicted_n: 170 } });
    }
    return Response.json({ ...base, usage: { prompt_tokens: prompt, completion_tokens: 170, total_tokens: prompt + 170, prompt_tokens_details: { cached_tokens: cached } } });
  }, '/v1/chat/completions');
}

const words = (s: string | null | undefined) => (s ? s.replaceAll('_', ' ') : '');

/** The fake model's explanation: plain sentences that copy the facts' numbers (every one grounded). */
export function writeBullets(facts: Facts): string[] {
  if (!facts) throw new Error('the request carried no facts matching ExplainFactsSchema');
  const f = facts;
  const s = f.signal;
  const l = f.levels;
  const g = f.geometry;
  const bullets: string[] = [];
  const where = s.distancePct === null ? '' : s.distancePct >= 0 ? `, and the last close of ${s.price} is ${s.distancePct}% past the trigger` : `, and the last close of ${s.price} is ${Math.abs(s.distancePct)}% short of the trigger`;
  bullets.push(
    `${s.name ?? s.symbol} (${s.symbol}) shows a ${words(s.patternType)}, a ${words(s.patternFamily) || 'chart'} pattern for a ${s.direction} trade, now ${words(s.breakoutState) || 'open'}` +
      (g ? `: it formed over ${g.lengthBars} bars from ${g.start} to ${g.end} and was ${g.depthPct}% deep${g.contractions > 0 ? ` with ${g.contractions} contractions` : ''}` : '') +
      `${where}.`,
  );
  if (l.trigger !== null && l.target1 !== null) {
    bullets.push(
      `The trigger is ${l.trigger}; the first target is ${l.target1} (${l.targetPct}% beyond it)` +
        (l.stopLoss !== null ? ` and the setup is invalidated at ${l.stopLoss} (${l.riskPct}% risk), about ${l.rewardRisk} units of reward per unit of risk.` : '.'),
    );
  }
  const v = f.volume;
  const parts = [
    v.breakoutVolumeRatio !== null ? `breakout volume ran ${v.breakoutVolumeRatio}x its ${f.definitions.volumeAverageBars}-bar average` : null,
    v.avgDollarVolumeMillions !== null ? `it trades about $${v.avgDollarVolumeMillions}M a day` : null,
    f.relativeStrength.rsRank !== null ? `its RS rank is ${f.relativeStrength.rsRank} of ${f.definitions.rsRankRange[1]}` : null,
  ].filter(Boolean);
  if (parts.length > 0) bullets.push(`${parts.join(', ')}.`.replace(/^./, (c) => c.toUpperCase()));
  const r = f.regime;
  bullets.push(
    `The market regime is ${words(r.market) || 'unknown'}` +
      (r.breadthPct !== null ? ` with ${r.breadthPct}% of the universe above its 50-bar average` : '') +
      (r.symbolTrend ? `; the stock itself is ${r.symbolTrend === 'sideways' ? 'moving sideways' : `in ${r.symbolTrend === 'uptrend' ? 'an' : 'a'} ${r.symbolTrend}`}` : '') +
      (f.sector.name ? ` and belongs to ${f.sector.name}${f.sector.sectorEtf ? ` (${f.sector.sectorEtf})` : ''}` : '') +
      (f.sector.rotation ? `, a sector ${f.sector.rotation.quadrant} the ${f.sector.rotation.benchmark}${f.sector.rotation.relative1mPct !== null ? ` (${f.sector.rotation.relative1mPct >= 0 ? 'ahead by' : 'behind by'} ${Math.abs(f.sector.rotation.relative1mPct)} points over a month)` : ''}` : '') +
      '.',
  );
  const e = f.earnings;
  if (e?.nextReport && e.tradingDaysUntil !== null) {
    bullets.push(`The next earnings report is on ${e.nextReport}, ${e.tradingDaysUntil} trading days away${e.blocksAlerts ? ', close enough that alerts are blocked' : e.withinHoldingWindow ? ', inside a typical holding window' : ', beyond a typical holding window'}.`);
  }
  const h = f.history.find((x) => x.scope === 'pattern_and_band');
  if (h) {
    bullets.push(
      h.closed > 0
        ? `In the ${h.source} ledger, ${h.scoreBand} ${words(h.patternType)} signals closed ${h.closed} trades with a ${h.hitRatePct}% hit rate and an average of ${h.avgR}R${h.closed < f.definitions.thinRecordBelowClosed ? ', a thin record so far' : ''}.`
        : `The ${h.source} ledger has no closed ${h.scoreBand} ${words(h.patternType)} trades yet (${h.signals} surfaced, ${h.open} still open), so there is no track record to lean on.`,
    );
  }
  const news = f.news[0];
  if (news?.headline) bullets.push(`In the news: "${news.headline}"${news.source ? ` (${news.source})` : ''}.`);
  return bullets.slice(0, 6);
}
