// Prints the plain closing line `N passed, N failed[, N skipped]` from jest's JSON results and
// exits non-zero when anything failed, a suite could not run, or no test ran at all.
import { readFileSync } from 'node:fs';

const file = process.argv[2] ?? '.ci/jest-results.json';
/** Type-check, lint and build steps that failed before the tests ran: each counts as one failure. */
const failedChecks = Number(process.argv[3] ?? 0);
let results;
try {
  results = JSON.parse(readFileSync(file, 'utf8'));
} catch (error) {
  console.log(`test-summary: no readable jest results at ${file} (${error.message})`);
  console.log(`0 passed, ${1 + failedChecks} failed`);
  process.exit(1);
}

const passed = results.numPassedTests;
const skipped = results.numPendingTests + results.numTodoTests;
const brokenSuites = results.testResults.filter(
  (suite) => suite.status === 'failed' && suite.assertionResults.length === 0,
);
const failed = results.numFailedTests + brokenSuites.length + failedChecks;
for (const suite of brokenSuites) console.log(`suite failed to run: ${suite.name}\n${suite.message}`);
if (failedChecks > 0) console.log(`${failedChecks} of type-check, lint and build failed (see above)`);

// Where the time goes, per tier (the sum of each suite's own duration: two workers run side by side).
const tierOf = (name) =>
  /\/test\/(browser|crash)\//.exec(name)?.[1] ?? /\.(unit|int|e2e)\.spec\.tsx?$/.exec(name)?.[1] ?? 'other';
const seconds = {};
for (const suite of results.testResults) {
  const tier = tierOf(suite.name);
  seconds[tier] = (seconds[tier] ?? 0) + (suite.endTime - suite.startTime) / 1000;
}
const tiers = Object.entries(seconds).map(([tier, total]) => `${tier} ${Math.round(total)} s`);
console.log(
  `suite time by tier: ${tiers.join(', ')}; wall ${Math.round((Math.max(...results.testResults.map((suite) => suite.endTime)) - results.startTime) / 1000)} s`,
);

const ran = passed + results.numFailedTests;
if (ran === 0) console.log('test-summary: no test was executed; that counts as a failure');
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 || ran === 0 || !results.success ? 1 : 0);
