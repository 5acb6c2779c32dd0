// Every refusal the domain can raise has one HTTP answer in the composed service, registered by the feature that
// raises it (ErrorAnswers): a code no feature registers would reach its caller as a 500.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DOMAIN_ERROR_CODES } from '#domain';
import { ErrorAnswers } from '#api';
import { startApp, type RunningApp } from '../support/start-app.js';

let running: RunningApp;

beforeAll(async () => {
  running = await startApp();
});
afterAll(async () => {
  await running.close();
});

describe('the refusal answers of the composed service', () => {
  it('answer every refusal code of the domain, each once', () => {
    const registered = running.app.get(ErrorAnswers).refusalCodes();

    expect([...registered].sort()).toEqual([...DOMAIN_ERROR_CODES].sort());
  });
});
