/**
 * @module cli/capacity
 * `breakline capacity`: measures a deployment under a load profile ramped in
 * steps, stops at the knee, and says what one instance carries and how many a
 * target needs (cli/capacity/run, model); `--smoke` is the CI's regression
 * guard (cli/capacity/smoke). `--role NAME` runs one of the processes a run
 * starts from this same executable (cli/capacity/roles).
 *
 * Every run is bounded: past `--time-limit` (plus a minute to clean up) the
 * command stops what it started and exits 1, whatever it was waiting for.
 */
import { usageError } from '../config';
import { capacityArguments, USAGE } from './options';
import { buildProfile } from './profile';

export const HELP = `${USAGE}

Measures a Breakline deployment under load and plans for a target.

Where:
  --url URL              a running deployment (default: a local instance started
                         on the embedded defaults: PGlite in a temporary
                         directory, synthetic market, quotas lifted)
  --allow-remote         load a URL that is not this machine's loopback (only
                         a deployment that is yours to load)
  --pid N                the process id of the server at a loopback --url, to
                         read its CPU and memory from /proc
  --env NAME=VALUE       a setting of the local instance (repeatable), e.g.
                         --env POOL_SIZE=4

The load (a profile file, or flags over it; default: a dashboard of breakouts):
  --profile FILE         JSON: {"rps", "routes":[{"path","weight","auth"}],
                         "graphql":[{"query","variables","weight","auth"}],
                         "symbols":[…], "sse":{"clients","channels","symbols",
                         "auth"}, "eventRate", "quoteIntervalMs"}; {symbol}
                         in a path cycles through "symbols"
  --route [W:]PATH       a documented GET route with weight W (repeatable)
  --graphql [W:]QUERY    a GraphQL query (repeatable)
  --rps N                requests a second at the top of the ramp
  --sse N                SSE clients at the top of the ramp
  --channels A,B         their channels; --symbols X,Y their quote symbols
  --event-rate N         events/s a local instance publishes (timed delivery)
  --quote-interval MS    SSE_QUOTE_INTERVAL_MS of a local instance
  --api-key KEY | --session TOKEN   a credential sent with every request

The ramp and the plan:
  --steps N              steps from 1/N of the load to all of it (default 6)
  --step-seconds S       seconds of requests per step (default 10)
  --p99 50ms             the latency the ramp must keep (default: the target's)
  --target "rps=3000,sse=20000,p99=50ms"   the load to plan instances for
  --cores N              cores of one instance (default: this machine's, local)
  --memory-mb N          memory one instance may use
  --db-max-connections N PostgreSQL's max_connections (default 100)
  --time-limit S         the whole run's bound in seconds (default 300)
  --json                 print the result as JSON (progress still on stderr)

Scaling laws (--sweep; each printed as a fitted line, see docs/capacity.md):
  --sweep                RSS and CPU against open streams (up to --sse, default
                         10000), CPU against requests a second (up to --rps),
                         req/s against cores, scan time against universe size,
                         replay time against years
  --dimensions A,B       some of streams,requests,cores,universe,years (all)
  --core-counts 1,2      cores (and POOL_SIZE) of the instances (1 … cores, ≤ 4)
  --universe-sizes N,M   stocks a scan covers (100,500,1000,1500,2000)
  --years N,M            whole years a replay covers (1,2,3,4), over
  --replay-symbols N     stocks (50)

CI:
  --smoke                the hot routes' CPU per request beside a bare handler
                         serving the same bytes; exits 1 when the ratio is more
                         than 1.5× the recorded one (--baseline FILE; --record
                         writes this run's ratio there)

Exit codes: 0 done, 1 the run failed (or the smoke found a regression), 64 bad usage.`;

export async function capacityCommand(args: string[]): Promise<number> {
  if (args[0] === '--role') {
    const roles = await import('./roles');
    if (args[1] === 'instance') {
      await roles.instanceRole();
      return 0;
    }
    if (args[1] === 'bare') {
      await roles.bareRole(args[2]);
      return 0;
    }
    if (args[1] === 'stream-clients') {
      const { parseClientsConfig, runStreamClients } = await import('./stream-clients');
      await runStreamClients(parseClientsConfig(args[2] ?? ''));
      return 0;
    }
    return usageError(`capacity: unknown role ${args[1]}`, USAGE);
  }
  const parsed = capacityArguments(args);
  if (!parsed.ok) return usageError(`capacity: ${parsed.error}`, USAGE);
  const options = parsed.value;
  const progress = (line: string) => process.stderr.write(`capacity: ${line}\n`);
  const { Cleanup } = await import('./run');
  const cleanup = new Cleanup();
  // The hard bound: whatever hangs, the processes this run started are stopped and the command ends.
  const bound = setTimeout(
    () => {
      progress(`the run passed its time limit (${options.timeLimitSeconds} s): stopping`);
      void cleanup.run().finally(() => process.exit(1));
    },
    (options.timeLimitSeconds + 60) * 1000,
  );
  const interrupted = () => void cleanup.run().finally(() => process.exit(130));
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  try {
    if (options.mode === 'smoke') {
      const { runSmoke } = await import('./smoke');
      return await runSmoke(options, cleanup, progress);
    }
    if (options.mode === 'sweep') {
      const { runSweep } = await import('./sweep');
      return await runSweep(options, cleanup, progress);
    }
    const profile = buildProfile(options);
    if (!profile.ok) return usageError(`capacity: ${profile.error}`, USAGE);
    const { runCapacity } = await import('./run');
    const result = await runCapacity(options, profile.value, cleanup, progress);
    await cleanup.run();
    if (options.json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    else {
      const { formatRun } = await import('./report');
      process.stdout.write(`${formatRun(result)}\n`);
    }
    return 0;
  } catch (error) {
    progress(`failed: ${(error as Error).message}`);
    return 1;
  } finally {
    await cleanup.run();
    clearTimeout(bound);
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
  }
}
