#!/usr/bin/env node
/*
 * cdp_wait.js - open a page in headless Chromium and wait, in real time,
 * until a JavaScript expression in it is true; print its value as JSON.
 * Used where --dump-dom cannot look (a page that reloads itself) and to
 * time the first screen of a page (bench/viewer.sh).
 *
 * It speaks the DevTools protocol over --remote-debugging-pipe (file
 * descriptors 3 and 4, messages ended by a NUL byte), so it needs Node
 * alone, no npm package.
 *
 * usage: node cdp_wait.js CHROMIUM URL EXPRESSION TIMEOUT_MS PROFILE_DIR
 * Exit status: 0 when the expression became true, 1 on timeout, 2 on error.
 */
'use strict';
const { spawn } = require('child_process');

const [chrome, url, expression, timeoutMs, profile] = process.argv.slice(2);
if (!profile) {
  process.stderr.write('usage: node cdp_wait.js CHROMIUM URL EXPRESSION TIMEOUT_MS PROFILE_DIR\n');
  process.exit(2);
}

const child = spawn(chrome, [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--disable-extensions', '--window-size=1280,900', '--user-data-dir=' + profile,
  '--remote-debugging-pipe', 'about:blank',
], { stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'], detached: true });

const toBrowser = child.stdio[3], fromBrowser = child.stdio[4];
let nextId = 1, buffer = Buffer.alloc(0);
const pending = new Map();

fromBrowser.on('data', (chunk) => {
  buffer = Buffer.concat([buffer, chunk]);
  let end;
  while ((end = buffer.indexOf(0)) >= 0) {
    const msg = JSON.parse(buffer.subarray(0, end).toString('utf8'));
    buffer = buffer.subarray(end + 1);
    if (msg.id && pending.has(msg.id)) {
      const { resolve, reject } = pending.get(msg.id);
      pending.delete(msg.id);
      if (msg.error) reject(new Error(msg.error.message));
      else resolve(msg.result);
    }
  }
});

function send(method, params, sessionId) {
  const id = nextId++;
  const msg = { id, method, params: params || {} };
  if (sessionId) msg.sessionId = sessionId;
  toBrowser.write(JSON.stringify(msg) + '\0');
  return new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
}

/* Chromium runs in its own process group (detached), so that its
 * renderers and helpers end with it. */
function finish(code, text) {
  if (text !== undefined) process.stdout.write(text + '\n');
  try { process.kill(-child.pid, 'SIGKILL'); } catch (e) { /* gone */ }
  process.exit(code);
}

const deadline = Date.now() + Number(timeoutMs);
setTimeout(() => finish(1, 'null'), Number(timeoutMs) + 2000);
child.on('error', (e) => { process.stderr.write('cdp_wait: ' + e.message + '\n'); process.exit(2); });

(async () => {
  const { targetId } = await send('Target.createTarget', { url: 'about:blank' });
  const { sessionId } = await send('Target.attachToTarget', { targetId, flatten: true });
  await send('Page.enable', {}, sessionId);
  await send('Page.navigate', { url }, sessionId);
  for (;;) {
    let value = null;
    try {
      const r = await send('Runtime.evaluate', { expression, returnByValue: true }, sessionId);
      value = r.result ? r.result.value : null;
    } catch (e) {
      value = null;   /* between documents while the page reloads */
    }
    if (value) return finish(0, JSON.stringify(value));
    if (Date.now() > deadline) return finish(1, JSON.stringify(value === undefined ? null : value));
    await new Promise((r) => setTimeout(r, 50));
  }
})().catch((e) => { process.stderr.write('cdp_wait: ' + e.message + '\n'); finish(2); });
