/**
 * The cluster suite (issue 26, "How it is tested"): three `breakline serve`
 * instances behind HAProxy (deploy/haproxy.cfg) on a private PostgreSQL 15
 * and Redis that the suite stops and starts, six fault scenarios in a row on
 * one cluster, each with traffic, writes and stream subscribers on every
 * instance. Every scenario is held to the same promises; a few have one more.
 * `npm run test:cluster` (not part of `npm test`: it needs PostgreSQL 15,
 * Redis and HAProxy installed, and takes minutes); `CLUSTER_SUITE=ci` runs
 * CI's three of them with short outages (helpers/cluster/profile).
 * bench/cluster prints the same scenarios as a table.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { Cluster } from '../helpers/cluster/cluster';
import { READY_DEADLINE_SECONDS, runScenario, type Outcome } from '../helpers/cluster/run';
import { suiteScenarios } from '../helpers/cluster/scenarios';

let cluster: Cluster;

beforeAll(async () => {
  cluster = await Cluster.create();
});

afterAll(async () => {
  await cluster?.destroy();
});

for (const scenario of suiteScenarios()) {
  describe(scenario.name, () => {
    let outcome: Outcome;
    beforeAll(async () => {
      outcome = await runScenario(cluster, scenario);
      console.log(`${scenario.name}: ${JSON.stringify(outcome)}`);
    });

    it('no process exits unexpectedly', () => {
      expect(outcome.unexpectedExits).toEqual([]);
    });

    it(`every instance is ready again within ${READY_DEADLINE_SECONDS} s of the fault ending`, () => {
      const late = outcome.recovery.filter((r) => r.seconds === null || r.seconds > READY_DEADLINE_SECONDS);
      expect(late).toEqual([]);
    });

    it('loses no acknowledged write and stores none twice', () => {
      expect(outcome.writes.acknowledged).toBeGreaterThan(0); // the scenario wrote something
      expect({ lost: outcome.writes.lost, duplicated: outcome.writes.duplicated }).toEqual({ lost: [], duplicated: [] });
    });

    it('keeps both ledgers verifiable, with no record twice', () => {
      expect({ verifies: outcome.ledger.verifies, report: outcome.ledger.report }).toEqual({ verifies: true, report: '' });
      expect(outcome.ledger.duplicates.filter((d) => d.count > 0)).toEqual([]);
    });

    it('runs each once-per-cluster job once', () => {
      const { overlapping, unscheduled, expectedUnscheduled, bootReplaysStarted, expectedBootReplays, bootReplays } = outcome.jobs;
      expect({ overlapping, unscheduled }).toEqual({ overlapping: [], unscheduled: expectedUnscheduled });
      // One boot replay for the cluster (started in the fresh start), its signal counter equal to the signals it recorded.
      expect(bootReplaysStarted).toBe(expectedBootReplays);
      expect(bootReplays.filter((r) => r.signals !== r.signalRecords)).toEqual([]);
    });

    it('schedules scans again after the fault', () => {
      expect(outcome.jobs.runsAfterFault).toBeGreaterThan(0);
    });

    it('delivers every stored event to every subscriber exactly once, or a reset', () => {
      expect(outcome.streams.reduce((n, s) => n + s.expected, 0)).toBeGreaterThan(0); // there were events to deliver
      const wrong = outcome.streams.filter((s) => s.lost > 0 || s.duplicates > 0 || s.foreign > 0);
      expect(wrong).toEqual([]);
    });

    it('admits exactly the quota per window through the balancer', () => {
      const admitted = outcome.admissions.map((a) => `${a.client}: ${a.admitted} of ${a.sent}`);
      expect(admitted).toEqual(outcome.admissions.map((a) => `${a.client}: ${a.quota} of ${a.sent}`));
    });

    if (scenario.noFailedRequests) {
      it('fails no request through the balancer', () => {
        expect(outcome.requests.failedByKind).toEqual({});
      });
    }
  });
}
