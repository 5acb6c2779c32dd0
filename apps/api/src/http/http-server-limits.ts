// Slow clients cannot hold connections for minutes (slowloris: headers or a body sent a byte at a
// time), idle keep-alive connections are closed, and the number of open connections is capped.
import type { Server } from 'node:http';
import type { HttpLimits } from '#config';

/** How often Node looks for requests past their timeouts (30 s by default: a cut-off up to 30 s late). */
const TIMEOUT_CHECK_INTERVAL_MS = 1_000;

/** Applies the limits to the server before it listens. */
export function applyHttpServerLimits(server: Server, limits: HttpLimits): void {
  server.headersTimeout = limits.headersTimeoutMs;
  server.requestTimeout = limits.requestTimeoutMs;
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  server.maxConnections = limits.maxConnections;
  // Only a createServer option in Node's types, but read from the server when it starts listening.
  (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval = Math.min(
    TIMEOUT_CHECK_INTERVAL_MS,
    limits.headersTimeoutMs,
  );
}
