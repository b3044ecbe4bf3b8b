// Headless Chromium over the DevTools protocol, on a pipe (--remote-debugging-pipe: JSON messages
// ended by NUL on file descriptors 3 and 4, so any Node will do), for the checks of horde's report
// pages: each page opened is watched for console errors, exceptions and failed requests, and
// every request it makes is kept, with its images' state and a screenshot.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

// Starts Chromium; `problems` collects what the checks find, `finish` ends it and the process
// (exit 1 when there were problems).
export function startChromium(artifacts) {
  const problems = [];
  const profile = mkdtempSync(join(tmpdir(), 'horde-chromium-'));
  const chromium = spawn(process.env.HORDE_CHROMIUM || '/usr/bin/chromium', [
    '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync', '--window-size=1280,900',
    `--user-data-dir=${profile}`, '--remote-debugging-pipe', 'about:blank',
  ], { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'], detached: true }); // its own process group

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

  // Opens `file`, waits for its load, notes every problem, keeps a screenshot as `shot` in the
  // artifacts folder; returns an evaluate(expression) for the page, its images and its requests.
  async function open(file, shot) {
    const { targetId } = await send('Target.createTarget', { url: 'about:blank' });
    const { sessionId } = await send('Target.attachToTarget', { targetId, flatten: true });
    const here = (m) => m.sessionId === sessionId;
    const requests = [];
    listeners.push((m) => {
      if (!here(m)) return;
      if (m.method === 'Runtime.exceptionThrown') problems.push(`${file}: exception: ${m.params.exceptionDetails.text}`);
      if (m.method === 'Runtime.consoleAPICalled' && m.params.type === 'error')
        problems.push(`${file}: console error: ${m.params.args.map((a) => a.value).join(' ')}`);
      if (m.method === 'Log.entryAdded' && m.params.entry.level === 'error')
        problems.push(`${file}: ${m.params.entry.text} ${m.params.entry.url || ''}`);
      if (m.method === 'Network.loadingFailed') problems.push(`${file}: a request failed: ${m.params.errorText}`);
      if (m.method === 'Network.requestWillBeSent') requests.push(m.params.request.url);
    });
    for (const domain of ['Runtime', 'Log', 'Network', 'Page']) await send(`${domain}.enable`, {}, sessionId);
    const loaded = new Promise((resolve) => listeners.push((m) => here(m) && m.method === 'Page.loadEventFired' && resolve()));
    await send('Page.navigate', { url: pathToFileURL(file).href }, sessionId);
    await loaded;
    const evaluate = async (expression) =>
      (await send('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true }, sessionId)).result.value;
    const images = await evaluate(`Array.from(document.images).map(i => ({ src: i.src, ok: i.complete && i.naturalWidth > 0 }))`);
    for (const image of images) if (!image.ok) problems.push(`${file}: image not loaded: ${image.src}`);
    const { data } = await send('Page.captureScreenshot', { format: 'png' }, sessionId);
    writeFileSync(join(artifacts, shot), Buffer.from(data, 'base64'));
    return { evaluate, images, requests };
  }

  return { problems, open, finish };
}
