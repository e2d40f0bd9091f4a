import { describe, expect, it } from 'bun:test';
import { fromMetrics, metricSum, parseMetrics, statCpuSeconds, use } from '../../../src/cli/capacity/resources';
import { newConnection, requestFor, StreamClients } from '../../../src/cli/capacity/stream-clients';
import { table } from '../../../src/cli/capacity/report';

describe('breakline capacity: reading a server', () => {
  it('reads samples of the Prometheus text format, summing a family over its labels', () => {
    const text = ['# HELP x y', 'breakline_pool_threads 4', 'breakline_http_requests_total{route="/a"} 3', 'breakline_http_requests_total{route="/b"} 4', ''].join('\n');
    const metrics = parseMetrics(text);
    expect(metricSum(metrics, 'breakline_http_requests_total')).toBe(7);
    expect(metricSum(metrics, 'breakline_pool_threads')).toBe(4);
    expect(metricSum(metrics, 'breakline_pool')).toBeUndefined();
  });

  it('reads CPU from /proc stat fields 14 and 15 (ticks of 1/100 s), after a command name holding spaces and parentheses', () => {
    // proc(5): pid (comm) state ppid pgrp session tty_nr tpgid flags minflt cminflt majflt cmajflt utime stime …
    const stat = '4242 (bun (worker) x) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 50 0 0 20 0 8 0';
    expect(statCpuSeconds(stat)).toBe(3);
    expect(statCpuSeconds(require('node:fs').readFileSync('/proc/self/stat', 'utf8'))).toBeGreaterThan(0);
  });

  it("turns the pool's since-start utilisation into busy thread-seconds, and two readings into a window's use", () => {
    const m = parseMetrics('breakline_pool_utilization 0.5\nbreakline_pool_threads 2\nbreakline_process_start_time_seconds 1000\nbreakline_process_cpu_seconds_total 7\n');
    expect(fromMetrics(m, 1100).poolBusySeconds).toBe(100); // 0.5 × 100 s × 2 threads
    const window = use({ at: 0, cpuSeconds: 7, poolBusySeconds: 100, poolThreads: 2 }, { at: 10_000, cpuSeconds: 12, poolBusySeconds: 110, poolThreads: 2 });
    expect(window).toMatchObject({ seconds: 10, cpuCores: 0.5, poolUtilization: 0.5 });
  });
});

describe('breakline capacity: the stream clients', () => {
  const encoder = new TextEncoder();
  it('counts the events it was asked for, timed from the payload, and stands ready once greeted', () => {
    let ready = 0;
    const clients = new StreamClients({ host: '127.0.0.1', port: 1, paths: ['/api/stream'], count: 1, events: { 'breakouts.state_change': 'price', 'breakouts.new': null } }, () => ready++);
    const conn = newConnection();
    const sent = performance.timeOrigin + performance.now() - 5; // 5 ms ago
    clients.take(conn, encoder.encode('HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n\r\nevent: hello\ndata: {}\n\n'));
    expect(ready).toBe(1);
    clients.take(conn, encoder.encode(`id: 1-0\nevent: breakouts.state_change\ndata: {"price":${sent}}\n\nid: 2-0\nevent: breakouts.new\ndata: {}\n\n: ping\n\n`));
    const report = clients.report(0);
    expect(report.received).toBe(2);
    expect(report.latencies).toHaveLength(1);
    expect(report.latencies[0]!).toBeGreaterThanOrEqual(5000); // µs
  });

  it('counts a refused stream by its status', () => {
    const clients = new StreamClients({ host: '127.0.0.1', port: 1, paths: ['/api/stream'], count: 1, events: {} }, () => {});
    clients.take(newConnection(), encoder.encode('HTTP/1.1 429 Too Many Requests\r\n\r\n'));
    expect(clients.report(0).refused).toEqual({ 429: 1 });
  });

  it('asks each connection its round-robin path with the credential', () => {
    const config = { host: '127.0.0.1', port: 3000, paths: ['/a', '/b'], count: 2, events: {}, headers: { authorization: 'Bearer k' } };
    expect(requestFor(config, 1)).toBe('GET /b HTTP/1.1\r\nHost: 127.0.0.1:3000\r\nAccept: text/event-stream\r\nauthorization: Bearer k\r\n\r\n');
  });
});

describe('breakline capacity: tables', () => {
  it('right-aligns numeric columns and prints unknown figures as –', () => {
    expect(table([{ step: 1, route: '/a', ms: 2.5 }, { step: 10, route: '/bb', ms: undefined }])).toBe(['step  route   ms', '----  -----  ---', '   1  /a     2.5', '  10  /bb      –'].join('\n'));
  });
});

describe('breakline capacity: CPU of a local process', () => {
  it("reads a thread's nanoseconds on a CPU from schedstat, and this process's CPU as it spins", async () => {
    const { readProc, schedstatSeconds } = await import('../../../src/cli/capacity/resources');
    expect(schedstatSeconds('1500000000 2000 30\n')).toBe(1.5);
    const before = readProc(process.pid);
    const until = performance.now() + 200;
    while (performance.now() < until); // 200 ms on the CPU, less whatever the machine took away
    const after = readProc(process.pid);
    expect(after.cpuSeconds! - before.cpuSeconds!).toBeGreaterThan(0);
    expect(after.loopCpuSeconds! - before.loopCpuSeconds!).toBeLessThanOrEqual(after.cpuSeconds! - before.cpuSeconds! + 1e-9);
    expect(after.rssBytes).toBeGreaterThan(0);
  });

  it('never runs backwards when a thread that worked ends between two readings', async () => {
    const { readProc } = await import('../../../src/cli/capacity/resources');
    const { readdirSync } = await import('node:fs');
    const threads = () => readdirSync(`/proc/${process.pid}/task`).length;
    const worker = new Worker(URL.createObjectURL(new Blob(['const until = performance.now() + 150; while (performance.now() < until); postMessage(1);'])));
    await new Promise((resolve) => (worker.onmessage = resolve));
    const running = threads();
    const before = readProc(process.pid); // the worker's 150 ms counted
    await worker.terminate();
    for (let i = 0; i < 200 && threads() >= running; i++) await Bun.sleep(10); // until its thread is gone
    const after = readProc(process.pid);
    expect(after.cpuSeconds!).toBeGreaterThanOrEqual(before.cpuSeconds!);
  });
});
