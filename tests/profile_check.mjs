// Opens `horde profile`'s page in headless Chromium (chromium.mjs) and checks what a person sees:
// no console errors or exceptions, nothing requested but the page itself (it works offline: no
// script or font from anywhere), the plots drawn (two over the crowd sizes with a line per
// technique, and each pass's bars per size), a table row per run with each size's fastest marked (a winner, or the fastest of runs
// whose spreads overlap).
// Keeps a screenshot.
//   node tests/profile_check.mjs INDEX ARTIFACT_DIR RUNS COUNTS
import { pathToFileURL } from 'node:url';

import { startChromium } from './chromium.mjs';

const [page, artifacts, runs, counts] = process.argv.slice(2);
const { problems, open, finish } = startChromium(artifacts);

try {
  const { evaluate, requests } = await open(page, 'profile_report.png');
  const self = pathToFileURL(page).href;
  for (const url of requests) if (url !== self) problems.push(`profile page: requested ${url}`);
  const scripts = await evaluate(`document.scripts.length`);
  if (scripts !== 0) problems.push(`profile page: ${scripts} scripts`);
  const plots = await evaluate(`Array.from(document.querySelectorAll('svg.plot')).map(s => ({
    lines: s.querySelectorAll('polyline.series').length, bars: s.querySelectorAll('rect.bar').length,
    width: s.getBoundingClientRect().width }))`);
  const techniques = Number(runs) / Number(counts);
  if (plots.length !== 2 + Number(counts)) problems.push(`profile page: ${plots.length} plots, expected ${2 + Number(counts)}`);
  for (const [i, plot] of plots.entries()) {
    if (plot.width < 300) problems.push(`profile page: plot ${i} is ${plot.width} px wide`);
    if (i < 2 && plot.lines !== techniques) problems.push(`profile page: plot ${i} has ${plot.lines} lines, expected ${techniques}`);
    if (i >= 2 && plot.bars < techniques) problems.push(`profile page: plot ${i} has ${plot.bars} bars for ${techniques} techniques`);
  }
  const rows = await evaluate(`document.querySelectorAll('#runs tbody tr').length`);
  if (rows !== Number(runs)) problems.push(`profile page: ${rows} rows, expected ${runs}`);
  const marked = await evaluate(`document.querySelectorAll('#runs tbody tr.winner, #runs tbody tr.fastest').length`);
  if (marked !== Number(counts)) problems.push(`profile page: ${marked} fastest runs marked, expected ${counts}`);
} catch (e) {
  problems.push(e.stack || String(e));
}
await finish();
