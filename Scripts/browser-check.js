#!/usr/bin/env node
// Checks the exported page's own JavaScript model at every position of a log, without a
// browser: used by Scripts/browser-test.sh when node is installed.
//
//   node Scripts/browser-check.js PAGE.html STATES.txt DIFFS.txt
//
// PAGE.html is a page of `replay export --html`. STATES.txt holds, one line per position from
// the first, the state as `replay state LOG --at N --json` prints it; DIFFS.txt the diff of each
// action as the session's `diff` prints it, each followed by a line `@@`. The page's model (the
// part of its script before the view) rebuilds every state from its full states and patches,
// in a scrambled order, and writes every diff; each must equal replay's, character for
// character. Prints one line and exits 1 on any difference.
'use strict';
const fs = require('fs');
const vm = require('vm');

const [page, statesFile, diffsFile] = process.argv.slice(2);
if (!diffsFile) {
  console.error('usage: browser-check.js PAGE.html STATES.txt DIFFS.txt');
  process.exit(2);
}
const html = fs.readFileSync(page, 'utf8');
const between = (open, close, from = 0) => {
  const start = html.indexOf(open, from);
  if (start < 0) throw new Error('no ' + open + ' in ' + page);
  const end = html.indexOf(close, start + open.length);
  return [html.slice(start + open.length, end), end];
};
const [data, dataEnd] = between('<script type="application/json" id="rewind-data">', '</script>');
const [script] = between('<script>', '</script>', dataEnd);
const viewStart = script.indexOf('\n(() => {\n  const M = RewindModel;');
if (viewStart < 0) throw new Error('the page script has no view part after its model');
const context = vm.createContext({ Intl });
vm.runInContext(script.slice(0, viewStart) + '\nthis.RewindModel = RewindModel;', context);
const M = context.RewindModel;

const expectedStates = fs.readFileSync(statesFile, 'utf8').replace(/\n$/, '').split('\n');
const expectedDiffs = fs.readFileSync(diffsFile, 'utf8').split('@@\n').map((d) => d.replace(/\n$/, ''));
const root = M.parseJSON(data, { lazy: new Set(['patches']) });
const states = new M.States(root.get('states'));
const first = states.first;
const count = expectedStates.length;
const failures = [];
for (let k = 0; k < count; k++) {
  const p = first + ((k * 7919) % count);
  const shown = M.compact(states.at(p));
  if (shown !== expectedStates[p - first]) failures.push(`state at ${p}:\n  page:   ${shown}\n  replay: ${expectedStates[p - first]}`);
  if (p === first) continue;
  const lines = states.diffLines(p).map((line) => line.text);
  const diff = lines.length ? lines.join('\n') : 'no changes';
  if (diff !== expectedDiffs[p - first - 1]) failures.push(`diff of ${p}:\n  page:\n${diff}\n  replay:\n${expectedDiffs[p - first - 1]}`);
}
if (failures.length) {
  console.log(`FAIL: the page's model differs from replay at ${failures.length} place${failures.length === 1 ? "" : "s"}`);
  console.log(failures.slice(0, 5).join('\n'));
  process.exit(1);
}
console.log(`ok: the page's model rebuilds all ${count} states and ${count - 1} diffs exactly as replay prints them`);
