// Opens an Articula animation page in headless Chromium and checks it: no console or page errors,
// no network request at all, playback advances, the WebGL view shows the mechanism (pixels that
// are not background) and a plot is drawn; then saves a screenshot.
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

/** Statistics of a PNG, decoded by the browser: pixels that are coloured (not grey), their bounding box. */
async function colouredPixels(page, png) {
  return page.evaluate(async url => {
    const image = new Image();
    image.src = url;
    await image.decode();
    const c = document.createElement('canvas');
    c.width = image.width; c.height = image.height;
    const ctx = c.getContext('2d');
    ctx.drawImage(image, 0, 0);
    const { data } = ctx.getImageData(0, 0, c.width, c.height);
    let count = 0, x0 = Infinity, y0 = Infinity, x1 = -1, y1 = -1;
    for (let i = 0; i < data.length; i += 4) {
      const r = data[i], g = data[i + 1], b = data[i + 2];
      if (Math.max(r, g, b) - Math.min(r, g, b) < 60) continue;
      const x = (i / 4) % c.width, y = Math.floor(i / 4 / c.width);
      count++; x0 = Math.min(x0, x); x1 = Math.max(x1, x); y0 = Math.min(y0, y); y1 = Math.max(y1, y);
    }
    return { count, fraction: count / (c.width * c.height), box: [x0, y0, x1, y1], size: [c.width, c.height] };
  }, `data:image/png;base64,${png.toString('base64')}`);
}

const profile = mkdtempSync(join(tmpdir(), 'articula-chromium-'));
let context;
try {
  context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    viewport: { width: 1280, height: 760 },
    // WebGL without a GPU: ANGLE on SwiftShader, Chromium's software renderer.
    args: ['--headless', '--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist',
           '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const page = context.pages()[0] ?? await context.newPage();
  page.on('console', m => {
    if (m.type() === 'error') fail(`console error: ${m.text()}`);
    else if (m.type() === 'warning') console.log(`console warning: ${m.text()}`);
  });
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
  await page.waitForFunction(() => document.body.dataset.ready === '1', null, { timeout: 30000 });
  const frameCount = await page.evaluate(() => window.articula.frameCount);
  // No looping: a short run must not wrap back to its first frame. Software WebGL compiles the
  // shaders on the first frames, which may take a second before playback moves.
  await page.evaluate(() => { const loop = document.getElementById('loop'); loop.checked = false; loop.dispatchEvent(new Event('change')); });
  const before = await page.evaluate(() => window.articula.currentFrame());
  await page.evaluate(() => window.articula.play());
  const started = Date.now();
  await page.waitForFunction(b => window.articula.currentFrame() > b || !window.articula.isPlaying(), before, { timeout: 10000 })
    .catch(() => {});
  await page.waitForTimeout(300);
  const after = await page.evaluate(() => window.articula.currentFrame());
  const playing = await page.evaluate(() => window.articula.isPlaying());
  await page.evaluate(() => window.articula.pause());
  console.log(`frames: ${frameCount}, frame before play: ${before}, ${Date.now() - started} ms later: ${after}, playing: ${playing}`);
  if (frameCount < 2) fail(`the page has ${frameCount} frame(s); playback needs at least 2`);
  else {
    if (!playing && after !== frameCount - 1) fail('playback stopped before the end');
    if (!(after > before)) fail(`the frame did not advance after play() (${before} -> ${after})`);
  }
  if (await page.evaluate(() => window.articula.isPlaying())) fail('pause() did not stop playback');

  // The 3D view, marker traces hidden: the bodies are the coloured pixels (background, grid and
  // shadows are grey).
  const view = page.locator('#view');
  if (await page.locator('#nowebgl').isVisible()) fail(`no WebGL: ${await page.locator('#nowebgl').textContent()}`);
  await page.evaluate(() => { const t = document.getElementById('traces'); t.checked = false; t.dispatchEvent(new Event('change')); });
  await page.waitForTimeout(100);
  const scene = await colouredPixels(page, await view.screenshot());
  console.log(`3D view: ${scene.count} coloured pixels (${(100 * scene.fraction).toFixed(2)} %), within [${scene.box}] of ${scene.size}`);
  if (scene.fraction < 0.003) fail(`the 3D view shows next to nothing but background (${scene.count} coloured pixels)`);
  await page.evaluate(() => { const t = document.getElementById('traces'); t.checked = true; t.dispatchEvent(new Event('change')); });

  // The plots: the first chart has curves.
  const chart = page.locator('.plot:not([hidden]) canvas').first();
  if (!(await chart.count())) fail('no plot is shown');
  else {
    const plot = await colouredPixels(page, await chart.screenshot());
    console.log(`first plot: ${plot.count} coloured pixels`);
    if (plot.count < 200) fail(`the first plot shows no curve (${plot.count} coloured pixels)`);
  }

  await page.waitForTimeout(100);
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
