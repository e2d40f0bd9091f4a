/**
 * A client process of bench/sse: holds `count` SSE connections to `url` over
 * raw loopback sockets (an EventSource per connection would measure the
 * client, not the server), counts the `breakouts.state_change` events each
 * receives and the delay from publish to receipt — the bench publishes the
 * publish time (epoch ms, sub-ms precision) in the payload's `price`.
 *
 * Talks to bench/sse on stdio, one JSON line each: prints `{"ready":n}` once n
 * connections have had their hello; on `report` prints
 * `{"received":…,"latencies":[µs…],"closed":…,"cpuUs":…}` (cpuUs: this
 * process's CPU time since the last report, so the bench can show the
 * clients are not the bottleneck); on `exit` exits.
 *
 *   bun run bench/sse-clients.ts <host> <port> <path> <count> [event]
 *
 * `path` may hold several paths separated by `|`: connection i asks the
 * i-th (round robin), so one process can hold subscriptions to different
 * symbols (bench/live). `event` is the event counted (default
 * `breakouts.state_change`); its payload's `price` carries the send time.
 */
export {};

const [host, portText, path, countText, eventName = 'breakouts.state_change'] = process.argv.slice(2);
const port = Number(portText);
const count = Number(countText);
const requests = path!.split('|').map((p) => `GET ${p} HTTP/1.1\r\nHost: ${host}\r\nAccept: text/event-stream\r\n\r\n`);
const clock = () => performance.timeOrigin + performance.now();

let ready = 0;
let received = 0;
let closed = 0;
const latencies: number[] = [];
const decoder = new TextDecoder();

type Conn = { text: string; greeted: boolean };

const PRICE = '"price":';
const EVENT = `event: ${eventName}`;

/** Splits frames off the connection's text; reads the publish time without a JSON parse (the client must stay cheap: it shares the CPUs with the server). */
function take(conn: Conn, chunk: Uint8Array): void {
  conn.text = conn.text === '' ? decoder.decode(chunk) : conn.text + decoder.decode(chunk);
  let start = 0;
  let end: number;
  while ((end = conn.text.indexOf('\n\n', start)) >= 0) {
    if (!conn.greeted) {
      if (conn.text.lastIndexOf('event: hello', end) >= start) {
        conn.greeted = true;
        if (++ready === count) console.log(JSON.stringify({ ready }));
      }
    } else {
      // (Raw HTTP/1.1: chunk-size lines sit between frames, so look inside the block.)
      const at = conn.text.indexOf(PRICE, start);
      const named = conn.text.indexOf(EVENT, start);
      if (at >= 0 && at < end && named >= 0 && named < end) {
        received++;
        latencies.push(Math.round((clock() - parseFloat(conn.text.slice(at + PRICE.length, at + PRICE.length + 24))) * 1000));
      }
    }
    start = end + 2;
  }
  conn.text = start >= conn.text.length ? '' : conn.text.slice(start);
}

for (let i = 0; i < count; i++) {
  const conn: Conn = { text: '', greeted: false };
  const request = requests[i % requests.length]!;
  await Bun.connect({
    hostname: host!,
    port,
    socket: {
      open(socket) {
        socket.write(request);
      },
      data(_, chunk) {
        take(conn, chunk);
      },
      close() {
        closed++;
      },
      error() {},
    },
  });
  if (i % 250 === 249) await Bun.sleep(5); // let the server accept in step
}

let cpuMark = process.cpuUsage();
for await (const line of console) {
  if (line === 'report') {
    const cpu = process.cpuUsage(cpuMark);
    cpuMark = process.cpuUsage();
    console.log(JSON.stringify({ received, latencies, closed, cpuUs: cpu.user + cpu.system }));
    latencies.length = 0;
    received = 0;
  } else if (line === 'exit') process.exit(0);
}
