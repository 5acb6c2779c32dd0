// In pino's (object, message) form.
export interface ReadModelsLogger {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export const silentLogger: ReadModelsLogger = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};
