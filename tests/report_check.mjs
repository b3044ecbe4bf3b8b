// Opens horde's validate reports in headless Chromium over the DevTools protocol (on a pipe:
// --remote-debugging-pipe, JSON messages ended by NUL on file descriptors 3 and 4, so any Node
// will do) and checks what a user sees: no console errors or exceptions, no failed request,
// every image loaded; on the folder report, that "failures only" hides every passing row and
// that rows sort by their worst figure. Keeps a screenshot of each.
//   node tests/report_check.mjs FOLDER_INDEX MODEL_INDEX ARTIFACT_DIR
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [folderPage, modelPage, artifacts] = process.argv.slice(2);
const profile = mkdtempSync(join(tmpdir(), 'horde-chromium-'));
const chromium = spawn(process.env.HORDE_CHROMIUM || '/usr/bin/chromium', [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync', '--window-size=1280,900',
  `--user-data-dir=${profile}`, '--remote-debugging-pipe', 'about:blank',
], { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'], detached: true }); // its own process group

const problems = [];
let said = '';
chromium.stderr.on('data', (chunk) => { said += chunk; });
const exited = new Promise((resolve) => chromium.on('exit', resolve));
async function finish(code) {
  // The whole group: Chromium's helper processes write into the profile too.
  try { process.kill(-chromium.pid, 'SIGTERM'); } catch { chromium.kill(); }
  await exited; // the profile is Chromium's until it has gone
  try {
    rmSync(profile, { recursive: true, force: true, maxRetries: 20, retryDelay: 100 });
  } catch (e) {
    console.error(`left ${profile}: ${e.message}`); // a leftover temporary folder is not a failed check
  }
  for (const p of problems) console.error(p);
  process.exit(code || (problems.length ? 1 : 0));
}
setTimeout(() => { problems.push(`timed out; Chromium said: ${said}`); finish(1); }, 60000);

const toChromium = chromium.stdio[3], fromChromium = chromium.stdio[4];
fromChromium.setEncoding('utf8');
let nextId = 1, received = '';
const pending = new Map(), listeners = [];
fromChromium.on('data', (chunk) => {
  received += chunk;
  for (let end = received.indexOf('\0'); end >= 0; end = received.indexOf('\0')) {
    const message = JSON.parse(received.slice(0, end));
    received = received.slice(end + 1);
    if (message.id && pending.has(message.id)) {
      const { resolve, reject } = pending.get(message.id);
      pending.delete(message.id);
      message.error ? reject(new Error(JSON.stringify(message.error))) : resolve(message.result);
    } else if (message.method) {
      for (const l of listeners) l(message);
    }
  }
});
const send = (method, params = {}, sessionId) => new Promise((resolve, reject) => {
  const id = nextId++;
  pending.set(id, { resolve, reject });
  toChromium.write(JSON.stringify({ id, method, params, sessionId }) + '\0');
});

async function open(file, shot) {
  const { targetId } = await send('Target.createTarget', { url: 'about:blank' });
  const { sessionId } = await send('Target.attachToTarget', { targetId, flatten: true });
  const here = (m) => m.sessionId === sessionId;
  listeners.push((m) => {
    if (!here(m)) return;
    if (m.method === 'Runtime.exceptionThrown') problems.push(`${file}: exception: ${m.params.exceptionDetails.text}`);
    if (m.method === 'Runtime.consoleAPICalled' && m.params.type === 'error')
      problems.push(`${file}: console error: ${m.params.args.map((a) => a.value).join(' ')}`);
    if (m.method === 'Log.entryAdded' && m.params.entry.level === 'error')
      problems.push(`${file}: ${m.params.entry.text} ${m.params.entry.url || ''}`);
    if (m.method === 'Network.loadingFailed') problems.push(`${file}: a request failed: ${m.params.errorText}`);
  });
  for (const domain of ['Runtime', 'Log', 'Network', 'Page']) await send(`${domain}.enable`, {}, sessionId);
  const loaded = new Promise((resolve) => listeners.push((m) => here(m) && m.method === 'Page.loadEventFired' && resolve()));
  await send('Page.navigate', { url: pathToFileURL(file).href }, sessionId);
  await loaded;
  const evaluate = async (expression) =>
    (await send('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true }, sessionId)).result.value;
  const images = await evaluate(`Array.from(document.images).map(i => ({ src: i.src, ok: i.complete && i.naturalWidth > 0 }))`);
  if (images.length === 0) problems.push(`${file}: no images`);
  for (const image of images) if (!image.ok) problems.push(`${file}: image not loaded: ${image.src}`);
  const { data } = await send('Page.captureScreenshot', { format: 'png' }, sessionId);
  writeFileSync(join(artifacts, shot), Buffer.from(data, 'base64'));
  return evaluate;
}

try {
  const folder = await open(folderPage, 'folder_report.png');
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
  await open(modelPage, 'model_report.png');
} catch (e) {
  problems.push(e.stack || String(e));
}
await finish();
