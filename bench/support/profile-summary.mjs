// Summarises a `node --cpu-prof` profile: self time by function and by where the code lives, and the
// inclusive time of the functions named on the command line (what the bench READMEs quote).
//   node bench/support/profile-summary.mjs PROFILE.cpuprofile [--top 30] [--inclusive name1,name2]
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { top: { type: 'string' }, inclusive: { type: 'string' } },
});
const profile = JSON.parse(readFileSync(positionals[0], 'utf8'));
const top = Number(values.top ?? 30);
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const parents = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);

// Self time per node from the samples and their time deltas.
const self = new Map();
profile.samples.forEach((id, index) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0)));
const total = [...self.values()].reduce((sum, value) => sum + value, 0);
const idle = [...self.entries()]
  .filter(([id]) => nodes.get(id).callFrame.functionName === '(idle)')
  .reduce((sum, [, value]) => sum + value, 0);
const busy = total - idle;

const where = (url) => {
  if (url === '') return '(native / V8)';
  const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (modules) return modules[1];
  const own = /\/dist\/((?:apps|libs)\/[^/]+)/.exec(url);
  if (own) return own[1];
  if (url.startsWith('node:')) return 'node core';
  return url;
};
const label = (frame) =>
  `${frame.functionName || '(anonymous)'} ${where(frame.url)}${frame.lineNumber >= 0 ? `:${frame.lineNumber + 1}` : ''}`;
const percent = (value) => `${((value / busy) * 100).toFixed(1).padStart(5)}%`;

const byFunction = new Map();
const byPlace = new Map();
for (const [id, time] of self) {
  const frame = nodes.get(id).callFrame;
  if (frame.functionName === '(idle)') continue;
  byFunction.set(label(frame), (byFunction.get(label(frame)) ?? 0) + time);
  byPlace.set(where(frame.url), (byPlace.get(where(frame.url)) ?? 0) + time);
}
console.log(`busy ${(busy / 1e6).toFixed(1)} s of ${(total / 1e6).toFixed(1)} s sampled (percentages of busy time)`);
console.log('\nself time by place');
for (const [place, time] of [...byPlace].sort((a, b) => b[1] - a[1]).slice(0, 20))
  console.log(`${percent(time)}  ${place}`);
console.log('\nself time by function');
for (const [name, time] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top))
  console.log(`${percent(time)}  ${name}`);

// Inclusive: a sample counts once for a name if any frame on its stack has that function name.
if (values.inclusive !== undefined) {
  console.log('\ninclusive time');
  for (const name of values.inclusive.split(',')) {
    let time = 0;
    for (const [id, value] of self) {
      for (let at = id; at !== undefined; at = parents.get(at)) {
        if (nodes.get(at).callFrame.functionName === name) {
          time += value;
          break;
        }
      }
    }
    console.log(`${percent(time)}  ${name}`);
  }
}
