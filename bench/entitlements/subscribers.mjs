// A process of subscribers for bench/entitlements/streams.mjs: opens `count` GET /entitlements/changes streams
// (plain node:http, one socket each) and records, per stream, when each change about one organization arrived
// (performance.timeOrigin + now: one clock for every process of this machine). Driven over IPC:
//   -> {ready: streams}        once every stream answered 200
//   <- 'report'  -> {arrivals} the arrival times, per stream
//   <- 'close'                 closes every stream and exits
import http from 'node:http';
import { performance } from 'node:perf_hooks';

const [url, key, countText, organizationId] = process.argv.slice(2);
const count = Number(countText);
const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
const now = () => performance.timeOrigin + performance.now();
const arrivals = Array.from({ length: count }, () => []);
const requests = [];

function open(index) {
  return new Promise((resolve, reject) => {
    const request = http.get(
      `${url}/entitlements/changes`,
      { agent, headers: { authorization: `Bearer ${key}`, accept: 'text/event-stream' } },
      (response) => {
        if (response.statusCode !== 200) {
          reject(new Error(`stream ${index}: ${response.statusCode}`));
          return;
        }
        response.setEncoding('utf8');
        let buffered = '';
        response.on('data', (chunk) => {
          buffered += chunk;
          for (let end = buffered.indexOf('\n\n'); end >= 0; end = buffered.indexOf('\n\n')) {
            const message = buffered.slice(0, end);
            buffered = buffered.slice(end + 2);
            const data = message.split('\n').find((line) => line.startsWith('data: '));
            if (message.includes('event: entitlements') && data?.includes(organizationId)) arrivals[index].push(now());
          }
        });
        resolve();
      },
    );
    request.on('error', reject);
    requests.push(request);
  });
}

// Opened a few hundred at a time, as many services starting would.
for (let index = 0; index < count; index += 250) {
  await Promise.all(Array.from({ length: Math.min(250, count - index) }, (_, offset) => open(index + offset)));
}
process.send({ ready: count });
process.on('message', (message) => {
  if (message === 'report') process.send({ arrivals });
  if (message === 'close') {
    for (const request of requests) request.destroy();
    process.exit(0);
  }
});
