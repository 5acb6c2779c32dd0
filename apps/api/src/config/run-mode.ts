/** Whether the modules serve HTTP or run inside one `chorus` command (background work stays off there). */
export type RunMode = 'server' | 'cli';

export const RUN_MODE = Symbol('RUN_MODE');
