// The animation page (docs/viewer.md): reads the page data, builds the 3D view, the plots and
// the controls, and offers the hooks the browser test uses (window.articula).
import { readData } from './data.js';
import { Playback } from './playback.js';
import { Plots } from './plots.js';
import { View, traceColors } from './scene.js';

const el = id => document.getElementById(id);
const data = readData(el('data'));
const nf = data.frameCount, times = data.times;
const duration = nf ? times[nf - 1] - times[0] : 0;
const decimals = duration > 0 && duration < 1 ? 4 : 3;
const slider = el('slider'), timeLabel = el('time'), playButton = el('play'), speedBox = el('speed');
const loopBox = el('loop'), tracesBox = el('traces');

let view = null;
try {
  view = new View(el('view'), el('labels'), data);
} catch (e) {
  const message = el('nowebgl');
  message.textContent = `No 3D view: this browser offers no WebGL (${e.message}). The plots and controls still work.`;
  message.hidden = false;
}

const playback = new Playback(times, {
  onFrame: f => {
    view?.setFrame(f);
    plots.setFrame(f);
    slider.value = f;
    timeLabel.textContent = `t = ${times[f].toFixed(decimals)} s`;
  },
  onPlaying: playing => { playButton.textContent = playing ? 'Pause' : 'Play'; },
});
const plots = new Plots(el('charts'), el('signals'), data, t => {
  playback.pause();
  playback.setFrame(playback.frameAt(t));
});

// ---------------------------------------------------------------- marker traces
const markerChoices = data.markers.map((m, i) => {
  const label = document.createElement('label'), input = document.createElement('input'), swatch = document.createElement('i');
  input.type = 'checkbox';
  input.checked = true;
  swatch.className = 'swatch';
  swatch.style.background = traceColors[i % traceColors.length];
  label.append(input, swatch, m.name);
  el('markers').appendChild(label);
  return input;
});
el('marker-panel').hidden = !data.markers.length;
const showTraces = () => view?.showTraces(tracesBox.checked, markerChoices.map(c => c.checked));
tracesBox.addEventListener('change', showTraces);
markerChoices.forEach(c => c.addEventListener('change', showTraces));

// ---------------------------------------------------------------- controls
slider.max = Math.max(0, nf - 1);
slider.addEventListener('input', () => playback.setFrame(parseInt(slider.value, 10)));
playButton.addEventListener('click', () => playback.toggle());
speedBox.addEventListener('change', () => { playback.speed = parseFloat(speedBox.value); });
loopBox.addEventListener('change', () => { playback.loop = loopBox.checked; });
el('reset').addEventListener('click', () => view?.resetView());
el('toggle-panel').addEventListener('click', () => { el('panel').hidden = !el('panel').hidden; });
// Buttons and check boxes give the focus back, so that space stays play/pause and arrows step.
document.addEventListener('click', e => { if (e.target.matches('button, input[type=checkbox]')) e.target.blur(); });

window.addEventListener('keydown', e => {
  if (e.target instanceof HTMLSelectElement || e.target === slider) {
    if (e.code === 'Space') { e.preventDefault(); playback.toggle(); }
    return;  // arrows keep their meaning in the speed box and on the slider
  }
  const step = e.shiftKey ? 10 : 1;
  switch (e.key) {
    case ' ': playback.toggle(); break;
    case 'ArrowRight': playback.pause(); playback.setFrame(playback.frame + step); break;
    case 'ArrowLeft': playback.pause(); playback.setFrame(playback.frame - step); break;
    case 'ArrowUp': case 'ArrowDown': {
      const k = speedBox.selectedIndex + (e.key === 'ArrowUp' ? 1 : -1);
      speedBox.selectedIndex = Math.max(0, Math.min(speedBox.options.length - 1, k));
      speedBox.dispatchEvent(new Event('change'));
      break;
    }
    case 'Home': playback.setFrame(0); break;
    case 'End': playback.setFrame(nf - 1); break;
    case 'r': case 'f': view?.resetView(); break;
    default: return;
  }
  e.preventDefault();
});

if (view) new ResizeObserver(() => view.resize()).observe(el('stage'));
new ResizeObserver(() => plots.redraw()).observe(el('charts'));

// ---------------------------------------------------------------- start
el('info').textContent = `${data.bodies.length} ${data.bodies.length === 1 ? 'body' : 'bodies'} \u00b7 ${nf} ${nf === 1 ? 'frame' : 'frames'}` +
  (nf > 1 ? ` \u00b7 ${times[0].toFixed(decimals)}\u2013${times[nf - 1].toFixed(decimals)} s` : '');
if (nf) playback.setFrame(0);
else el('empty').hidden = false;
view?.render();
window.articula = {
  frameCount: nf,
  currentFrame: () => playback.frame,
  play: () => playback.play(),
  pause: () => playback.pause(),
  isPlaying: () => playback.playing,
};
document.body.dataset.ready = '1';
