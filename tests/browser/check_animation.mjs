// Opens an Articula animation page in headless Chromium, checks that it draws without
// console or page errors and that playback advances, and saves a screenshot.
//
//   node check_animation.mjs PAGE.html SCREENSHOT.png
//
// Environment: CHROMIUM (default /usr/bin/chromium). Exit status 0 on success, 1 on a
// failed check, 2 on bad usage.
import { chromium } from 'playwright-core';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [pagePath, shotPath] = process.argv.slice(2);
if (!pagePath || !shotPath) {
  console.error('usage: node check_animation.mjs PAGE.html SCREENSHOT.png');
  process.exit(2);
}
if (!existsSync(pagePath)) {
  console.error(`check_animation: no such file: ${pagePath}`);
  process.exit(2);
}

const problems = [];
const fail = message => { problems.push(message); };
const profile = mkdtempSync(join(tmpdir(), 'articula-chromium-'));
let context;
try {
  context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    viewport: { width: 1100, height: 700 },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
           '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const page = context.pages()[0] ?? await context.newPage();
  page.on('console', m => { if (m.type() === 'error') fail(`console error: ${m.text()}`); });
  page.on('pageerror', e => fail(`page error: ${e.message}`));
  // The page is self-contained: any request other than the file itself is a bug.
  const pageUrl = pathToFileURL(resolve(pagePath)).href;
  await page.route('**/*', route => {
    const url = route.request().url();
    if (url === pageUrl || url.startsWith('data:')) return route.continue();
    fail(`unexpected request: ${url}`);
    return route.abort();
  });

  await page.goto(pageUrl);
  await page.waitForFunction(() => document.body.dataset.ready === '1', null, { timeout: 10000 });
  const frameCount = await page.evaluate(() => window.articula.frameCount);
  // no looping: a short run must not wrap back to its first frame within the 500 ms
  await page.evaluate(() => { const loop = document.getElementById('loop'); if (loop) loop.checked = false; });
  const before = await page.evaluate(() => window.articula.currentFrame());
  await page.evaluate(() => window.articula.play());
  await page.waitForTimeout(500);
  const after = await page.evaluate(() => window.articula.currentFrame());
  const playing = await page.evaluate(() => window.articula.isPlaying());
  await page.evaluate(() => window.articula.pause());
  console.log(`frames: ${frameCount}, frame before play: ${before}, 500 ms later: ${after}, playing: ${playing}`);
  if (frameCount < 2) fail(`the page has ${frameCount} frame(s); playback needs at least 2`);
  else {
    if (!playing && after !== frameCount - 1) fail('playback stopped before the end');
    if (!(after > before)) fail(`the frame did not advance after play() (${before} -> ${after})`);
  }
  if (await page.evaluate(() => window.articula.isPlaying())) fail('pause() did not stop playback');
  await page.screenshot({ path: shotPath });
  console.log(`screenshot: ${shotPath}`);
} catch (e) {
  fail(`${e.message}`);
} finally {
  if (context) await context.close();
  rmSync(profile, { recursive: true, force: true });
}

if (problems.length) {
  for (const p of problems) console.error(`check_animation: ${p}`);
  process.exit(1);
}
console.log('check_animation: ok');
