// The floor for bench/entitlements/streams.mjs's memory measure: a bare node:http server that holds every
// GET as an open event stream (headers, one comment, nothing else), on the port given.
import http from 'node:http';

const streams = new Set();
http
  .createServer((request, response) => {
    if (request.url === '/health') return void response.end('ok');
    response.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
    response.write(': open\n\n');
    streams.add(response);
    request.once('close', () => streams.delete(response));
  })
  .listen(Number(process.argv[2]), '127.0.0.1', () => process.send?.('listening'));
