// The little the identity lib writes to the log; pino's logger fits it.
export interface IdentityLogger {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}
