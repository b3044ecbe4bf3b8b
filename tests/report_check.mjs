// Opens horde's validate reports in headless Chromium (chromium.mjs) and checks what a user sees:
// no console errors or exceptions, no failed request, every image loaded; on the folder report,
// that "failures only" hides every passing row and that rows sort by their worst figure. Keeps a
// screenshot of each.
//   node tests/report_check.mjs FOLDER_INDEX MODEL_INDEX ARTIFACT_DIR
import { startChromium } from './chromium.mjs';

const [folderPage, modelPage, artifacts] = process.argv.slice(2);
const { problems, open, finish } = startChromium(artifacts);

async function openReport(file, shot) {
  const page = await open(file, shot);
  if (page.images.length === 0) problems.push(`${file}: no images`);
  return page.evaluate;
}

try {
  const folder = await openReport(folderPage, 'folder_report.png');
  // The figures come back as text: JSON, which carries them out of the page, has no Infinity.
  const rows = (await folder(`Array.from(document.querySelectorAll('#models tbody tr')).map(r => ({ status: r.dataset.status, worst: r.dataset.worst }))`))
    .map((r) => ({ ...r, worst: Number(r.worst) }));
  for (let i = 1; i < rows.length; ++i)
    if (rows[i - 1].worst < rows[i].worst) problems.push(`folder report: row ${i} is worse than the row above it`);
  for (const [i, row] of rows.entries())
    if (row.status === 'error' && row.worst !== Infinity) problems.push(`folder report: error row ${i} does not sort first`);
  const failing = rows.filter((r) => r.status !== 'pass').length;
  const shown = await folder(`document.getElementById('failures').click(); Array.from(document.querySelectorAll('#models tbody tr')).filter(r => !r.hidden).map(r => r.dataset.status)`);
  if (shown.length !== failing || shown.includes('pass'))
    problems.push(`folder report: "failures only" shows ${JSON.stringify(shown)}, expected the ${failing} failing rows`);
  await openReport(modelPage, 'model_report.png');
} catch (e) {
  problems.push(e.stack || String(e));
}
await finish();
