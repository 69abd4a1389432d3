// The HTML/JavaScript template of the animation page: one self-contained file, plain
// JavaScript and a 2D canvas, no libraries and no network. AnimationWriter::write()
// fills the placeholders @@TITLE@@ (HTML-escaped model name), @@NOTE@@ (the red banner
// element, or nothing) and @@DATA@@ (a JSON object, see pageData() in animation.cpp).
//
// Rendering: every shape is a list of flat polygons in its body frame; each frame the
// polygons are placed with the body pose, back faces are culled, the rest are
// flat-shaded with a light fixed to the camera and painted back to front.
#pragma once

namespace articula::animation_page {

inline constexpr const char* kTemplate = R"HTML(<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>@@TITLE@@ - Articula animation</title>
<style>
  html, body { margin: 0; height: 100%; }
  body { display: flex; flex-direction: column; background: #1b1f24; color: #e6e6e6;
         font: 14px system-ui, -apple-system, "Segoe UI", sans-serif; }
  header { display: flex; align-items: baseline; gap: 12px; padding: 8px 12px;
           background: #262b32; border-bottom: 1px solid #363c45; }
  header h1 { font-size: 17px; margin: 0; font-weight: 600; }
  #info { opacity: 0.6; font-size: 12px; }
  #controls { display: flex; align-items: center; gap: 10px; flex-wrap: wrap; padding: 7px 12px;
              background: #262b32; border-top: 1px solid #363c45; }
  #slider { flex: 1; min-width: 120px; }
  #time { font-variant-numeric: tabular-nums; min-width: 13ch; }
  button, select { background: #394049; color: #eee; border: 1px solid #555d68; border-radius: 4px;
                   padding: 3px 10px; font: inherit; cursor: pointer; }
  button:hover, select:hover { background: #454d58; }
  #play { min-width: 5.5em; }
  label { display: inline-flex; align-items: center; gap: 4px; user-select: none; }
  #note { background: #b3261e; color: #fff; padding: 6px 12px; font-weight: 600; white-space: pre-wrap; }
  main { flex: 1; position: relative; min-height: 0; }
  canvas { position: absolute; inset: 0; width: 100%; height: 100%; cursor: grab; touch-action: none; }
  canvas.dragging { cursor: grabbing; }
  #help { position: absolute; right: 10px; bottom: 8px; font-size: 12px; opacity: 0.55; pointer-events: none; }
</style>
</head>
<body>
<header>
  <h1>@@TITLE@@</h1>
  <span id="info"></span>
</header>
@@NOTE@@
<main>
  <canvas id="view"></canvas>
  <div id="help">drag: orbit &middot; shift/right-drag: pan &middot; wheel: zoom &middot; space: play/pause &middot; &larr;/&rarr;: step</div>
</main>
<div id="controls">
  <button id="play" title="Play / pause (space)">Play</button>
  <input id="slider" type="range" min="0" max="0" value="0" step="1" aria-label="time">
  <span id="time">t = 0 s</span>
  <label>speed <select id="speed">
    <option value="0.1">0.1x</option><option value="0.25">0.25x</option><option value="0.5">0.5x</option>
    <option value="1" selected>1x</option><option value="2">2x</option><option value="4">4x</option>
  </select></label>
  <label><input id="loop" type="checkbox" checked> loop</label>
  <label><input id="traces" type="checkbox" checked> marker traces</label>
  <button id="fit" title="Frame the whole motion (f)">Fit</button>
</div>
<script>
"use strict";
const D = @@DATA@@;

// ---------------------------------------------------------------- vector helpers
const add = (a, b) => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const sub = (a, b) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const scale = (a, s) => [a[0] * s, a[1] * s, a[2] * s];
const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const length = a => Math.hypot(a[0], a[1], a[2]);
const unit = a => scale(a, 1 / (length(a) || 1));
const mat3Apply = (m, v) => [m[0] * v[0] + m[1] * v[1] + m[2] * v[2],
                             m[3] * v[0] + m[4] * v[1] + m[5] * v[2],
                             m[6] * v[0] + m[7] * v[1] + m[8] * v[2]];
/** A round number (1, 2 or 5 times a power of ten) near x > 0. */
function niceStep(x) {
  const e = Math.pow(10, Math.floor(Math.log10(x))), m = x / e;
  return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * e;
}
/** Row-major rotation matrix of the (re-normalised) quaternion [x, y, z, w]. */
function quatToMat(x, y, z, w) {
  const n = Math.hypot(x, y, z, w) || 1;
  x /= n; y /= n; z /= n; w /= n;
  return [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w),
          2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w),
          2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)];
}

// ---------------------------------------------------------------- frames
const nb = D.bodies.length, nf = D.times.length;
/** World pose of body b (0-based; -1 = ground) in frame f: {p, R}. */
function pose(f, b) {
  if (b < 0) return { p: [0, 0, 0], R: [1, 0, 0, 0, 1, 0, 0, 0, 1] };
  const o = (f * nb + b) * 7, P = D.poses;
  return { p: [P[o], P[o + 1], P[o + 2]], R: quatToMat(P[o + 3], P[o + 4], P[o + 5], P[o + 6]) };
}
const toWorld = (ps, v) => add(ps.p, mat3Apply(ps.R, v));
/** Up to `count` frame indices spread over the run, the last one included. */
function someFrames(count) {
  const out = [];
  if (nf === 0) return out;
  const step = Math.max(1, Math.floor(nf / count));
  for (let f = 0; f < nf; f += step) out.push(f);
  if (out[out.length - 1] !== nf - 1) out.push(nf - 1);
  return out;
}

// "up" is against gravity; (side, up, front) is a right-handed basis, side and front span the ground.
const up = length(D.gravity) > 0 ? unit(scale(D.gravity, -1)) : [0, 1, 0];
// The default viewing direction: from +z when up is y (planar mechanisms in x-y face
// the camera), from -y when up is z.
const front = (() => {
  const ref = Math.abs(up[2]) < 0.9 ? [0, 0, 1] : [0, -1, 0];
  return unit(sub(ref, scale(up, dot(ref, up))));
})();
const side = cross(up, front);

// ---------------------------------------------------------------- meshes
// A mesh is a list of faces {v: vertices, n: outward normal}, in the body frame.
function newellNormal(poly) {
  let n = [0, 0, 0];
  for (let i = 0; i < poly.length; i++) {
    const a = poly[i], b = poly[(i + 1) % poly.length];
    n = add(n, [(a[1] - b[1]) * (a[2] + b[2]), (a[2] - b[2]) * (a[0] + b[0]), (a[0] - b[0]) * (a[1] + b[1])]);
  }
  return unit(n);
}
/** Faces of a convex solid given as polygons; normals made to point away from `centre`. */
function convexFaces(polys, centre) {
  return polys.map(v => {
    const c = scale(v.reduce(add, [0, 0, 0]), 1 / v.length);
    let n = newellNormal(v);
    if (dot(n, sub(c, centre)) < 0) { v = v.slice().reverse(); n = scale(n, -1); }
    return { v, n };
  });
}
function boxPolys(s) {
  const h = scale(s, 0.5), c = [];
  for (let i = 0; i < 8; i++) c.push([(i & 1 ? 1 : -1) * h[0], (i & 2 ? 1 : -1) * h[1], (i & 4 ? 1 : -1) * h[2]]);
  return [[0, 1, 3, 2], [4, 5, 7, 6], [0, 1, 5, 4], [2, 3, 7, 6], [0, 2, 6, 4], [1, 3, 7, 5]]
    .map(f => f.map(i => c[i]));
}
/** Solid of revolution about z from a profile of [radius, z] points, `sides` around. */
function lathePolys(profile, sides) {
  const ring = ([r, z]) => Array.from({ length: sides }, (_, k) => {
    const a = 2 * Math.PI * k / sides;
    return [r * Math.cos(a), r * Math.sin(a), z];
  });
  const rings = profile.map(ring), polys = [];
  for (let j = 0; j + 1 < rings.length; j++)
    for (let k = 0; k < sides; k++) {
      const k1 = (k + 1) % sides, quad = [rings[j][k], rings[j][k1], rings[j + 1][k1], rings[j + 1][k]];
      // at a pole two corners coincide: keep a triangle
      polys.push(quad.filter((p, i) => length(sub(p, quad[(i + 1) % 4])) > 1e-12));
    }
  if (profile[0][0] > 0) polys.push(rings[0]);
  if (profile[profile.length - 1][0] > 0) polys.push(rings[rings.length - 1]);
  return polys;
}
/** Profile of a hemisphere-capped cylinder (a sphere when len = 0). */
function capsuleProfile(r, len, bands) {
  const p = [];
  for (let i = 0; i <= bands; i++) {
    const a = -Math.PI / 2 + Math.PI * i / bands;
    const z = r * Math.sin(a) + (i < bands / 2 ? -len / 2 : i > bands / 2 ? len / 2 : 0);
    if (i === bands / 2 && len > 0) { p.push([r, -len / 2], [r, len / 2]); continue; }
    p.push([i === 0 || i === bands ? 0 : r * Math.cos(a), z]);  // exact zero radius at the poles
  }
  return p;
}
function shapePolys(s) {
  const [sx, sy, sz] = s.size, r = sx / 2;
  switch (s.type) {
    case 'box': return boxPolys(s.size);
    case 'cylinder': return lathePolys([[r, -sz / 2], [r, sz / 2]], 16);
    case 'capsule': return lathePolys(capsuleProfile(r, sz, 8), 16);
    default: return lathePolys(capsuleProfile(Math.max(sx, sy, sz) / 2, 0, 8), 12);
  }
}
const palette = ['#4e8fd6', '#e0873a', '#5bb36b', '#c9598d', '#d8c24a', '#7d6fd3', '#48b8b8', '#d65f5f'];
function parseColor(text, fallback) {
  let m = /^#([0-9a-f]{6})$/i.exec(text || '');
  if (m) { const n = parseInt(m[1], 16); return [n >> 16, (n >> 8) & 255, n & 255]; }
  m = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/i.exec(text || '');
  if (m) return [m[1], m[2], m[3]].map(h => parseInt(h + h, 16));
  return parseColor(fallback, '#888888');
}

// Bodies without a shape become a small sphere at their centre of mass, sized to the scene.
const originSpread = (() => {
  let lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (const f of someFrames(100))
    for (let b = 0; b < nb; b++) {
      const p = pose(f, b).p;
      lo = lo.map((x, k) => Math.min(x, p[k])); hi = hi.map((x, k) => Math.max(x, p[k]));
    }
  return nb && nf ? length(sub(hi, lo)) : 0;
})();
const dotRadius = originSpread > 0 ? Math.min(0.02 * originSpread, 0.05) : 0.03;

const meshes = D.bodies.map((b, i) => {
  // Mesh files are not drawn by this renderer: such a body shows its other shapes, or the dot.
  const drawn = b.shapes.filter(s => s && s.type !== 'mesh'), s = drawn[0];
  let faces;
  if (s) {
    faces = drawn.flatMap(s => convexFaces(shapePolys(s).map(poly => poly.map(v => add(mat3Apply(s.rot, v), s.pos))), s.pos));
  } else {
    const polys = lathePolys(capsuleProfile(dotRadius, 0, 6), 10).map(poly => poly.map(v => add(v, b.com)));
    faces = convexFaces(polys, b.com);
  }
  // corners of the bounding box in the body frame, for framing the camera
  let lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (const f of faces) for (const v of f.v) { lo = lo.map((x, k) => Math.min(x, v[k])); hi = hi.map((x, k) => Math.max(x, v[k])); }
  const corners = Array.from({ length: 8 }, (_, k) => [k & 1 ? hi[0] : lo[0], k & 2 ? hi[1] : lo[1], k & 4 ? hi[2] : lo[2]]);
  for (const f of faces) f.c = scale(f.v.reduce(add, [0, 0, 0]), 1 / f.v.length);
  return { faces, corners, rgb: parseColor(s && s.color, palette[i % palette.length]) };
});

// World path of every marker, one point per frame.
const traceColors = ['#ffd54a', '#4ee6e0', '#ff7ad9', '#a6ff4d', '#ff9f43'];
const traces = D.markers.map(m => {
  const pts = [];
  for (let f = 0; f < nf; f++) pts.push(toWorld(pose(f, m.body), m.pos));
  return pts;
});

// World bounding box of the whole motion (shapes included, and the origin for the axes).
const scene = (() => {
  let lo = [0, 0, 0], hi = [0, 0, 0];
  const grow = p => { lo = lo.map((x, k) => Math.min(x, p[k])); hi = hi.map((x, k) => Math.max(x, p[k])); };
  for (const f of someFrames(400))
    for (let b = 0; b < nb; b++) { const ps = pose(f, b); for (const c of meshes[b].corners) grow(toWorld(ps, c)); }
  for (const t of traces) for (const p of t) grow(p);
  const size = Math.max(length(sub(hi, lo)), 1e-3), axisLength = niceStep(size / 8);
  for (let k = 0; k < 3; k++) grow([0, 1, 2].map(j => (j === k ? 1.2 * axisLength : 0)));  // axis tips and labels
  // the ground plane: through the origin, or below the lowest point of the motion
  let lowest = 0;
  for (let k = 0; k < 8; k++) lowest = Math.min(lowest, dot([k & 1 ? hi[0] : lo[0], k & 2 ? hi[1] : lo[1], k & 4 ? hi[2] : lo[2]], up));
  return { lo, hi, size, axisLength, ground: lowest };
})();

// ---------------------------------------------------------------- camera
const canvas = document.getElementById('view'), ctx = canvas.getContext('2d');
const FOV_HALF = 22 * Math.PI / 180;
const cam = { target: [0, 0, 0], dist: 3, yaw: 0.3, pitch: 0.22 };  // slightly oblique
let W = 1, H = 1;

/** Eye position and the camera axes: right, upward and forward (into the screen). */
function cameraBasis() {
  const cp = Math.cos(cam.pitch);
  const toEye = add(add(scale(front, cp * Math.cos(cam.yaw)), scale(side, cp * Math.sin(cam.yaw))), scale(up, Math.sin(cam.pitch)));
  const fwd = scale(toEye, -1), right = unit(cross(fwd, up)), upward = cross(right, fwd);
  return { eye: add(cam.target, scale(toEye, cam.dist)), fwd, right, upward, focal: 0.5 * Math.min(W, H) / Math.tan(FOV_HALF) };
}
/** Camera coordinates [x right, y up, depth] of a world point. */
function toCamera(C, p) {
  const d = sub(p, C.eye);
  return [dot(d, C.right), dot(d, C.upward), dot(d, C.fwd)];
}
const NEAR = 1e-3;
const toScreen = (C, q) => [W / 2 + C.focal * q[0] / q[2], H / 2 - C.focal * q[1] / q[2]];

/** Frames the whole motion from the current viewing direction. */
function fit() {
  const { lo, hi } = scene;
  cam.target = scale(add(lo, hi), 0.5);
  cam.dist = 1;
  const C = cameraBasis();
  let dist = 1e-3;
  for (let k = 0; k < 8; k++) {
    const corner = [k & 1 ? hi[0] : lo[0], k & 2 ? hi[1] : lo[1], k & 4 ? hi[2] : lo[2]];
    const d = sub(corner, cam.target), x = dot(d, C.right), y = dot(d, C.upward), z = dot(d, C.fwd);
    // the corner projects inside 90 % of the canvas
    dist = Math.max(dist, C.focal * Math.abs(x) / (0.45 * W) - z, C.focal * Math.abs(y) / (0.45 * H) - z, NEAR * 10 - z);
  }
  cam.dist = dist;
}

// ---------------------------------------------------------------- drawing
function resize() {
  const dpr = window.devicePixelRatio || 1, r = canvas.getBoundingClientRect();
  W = Math.max(1, r.width); H = Math.max(1, r.height);
  canvas.width = Math.round(W * dpr); canvas.height = Math.round(H * dpr);
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
}
/** A world-space segment, clipped at the near plane. */
function line3(C, a, b) {
  let p = toCamera(C, a), q = toCamera(C, b);
  if (p[2] < NEAR && q[2] < NEAR) return;
  if (p[2] < NEAR || q[2] < NEAR) {
    const t = (NEAR - p[2]) / (q[2] - p[2]), m = [p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1]), NEAR];
    if (p[2] < NEAR) p = m; else q = m;
  }
  const s = toScreen(C, p), e = toScreen(C, q);
  ctx.moveTo(s[0], s[1]); ctx.lineTo(e[0], e[1]);
}
/** Point of the ground plane at grid coordinates (u, v) along (side, front). */
const groundPoint = (u, v) => add(scale(up, scene.ground), add(scale(side, u), scale(front, v)));
function drawGround(C) {
  // grid lines around the scene centre, cut in segments that fade with the distance
  const step = niceStep(scene.size / 6), n = 12, levels = 6;
  const u0 = Math.round(dot(cam.target, side) / step), v0 = Math.round(dot(cam.target, front) / step);
  const paths = Array.from({ length: levels }, () => []);
  for (let i = -n; i <= n; i++)
    for (let j = -n; j < n; j++) {
      const r = Math.hypot(i, j + 0.5) / n, level = Math.floor(levels * r * r);
      if (level >= levels) continue;
      paths[level].push([(u0 + i) * step, (v0 + j) * step, (u0 + i) * step, (v0 + j + 1) * step],
                        [(u0 + j) * step, (v0 + i) * step, (u0 + j + 1) * step, (v0 + i) * step]);
    }
  ctx.lineWidth = 1; ctx.strokeStyle = '#8a96a6';
  paths.forEach((segments, level) => {
    ctx.globalAlpha = 0.32 * (1 - level / levels);
    ctx.beginPath();
    for (const [ua, va, ub, vb] of segments) line3(C, groundPoint(ua, va), groundPoint(ub, vb));
    ctx.stroke();
  });
  ctx.globalAlpha = 1;
}
/** Shadows of the bodies cast straight down on the ground, in one path (overlaps do not darken). */
function drawShadows(C, frame) {
  ctx.beginPath();
  for (let b = 0; b < nb; b++) {
    const ps = pose(frame, b);
    for (const face of meshes[b].faces) {
      if (dot(mat3Apply(ps.R, face.n), up) <= 1e-6) continue;  // upward faces cover the outline once
      const q = face.v.map(v => { const w = toWorld(ps, v); return toCamera(C, add(w, scale(up, scene.ground - dot(w, up)))); });
      if (q.some(p => p[2] <= NEAR)) continue;
      q.forEach((p, k) => { const s = toScreen(C, p); if (k) ctx.lineTo(s[0], s[1]); else ctx.moveTo(s[0], s[1]); });
      ctx.closePath();
    }
  }
  ctx.fillStyle = 'rgba(0, 0, 0, 0.35)';
  ctx.fill('nonzero');
}
function drawAxes(C) {
  const len = scene.axisLength;
  ctx.lineWidth = 2; ctx.font = '12px system-ui, sans-serif';
  [['x', [1, 0, 0], '#e5534b'], ['y', [0, 1, 0], '#57c45a'], ['z', [0, 0, 1], '#4f8df0']].forEach(([name, axis, color]) => {
    ctx.strokeStyle = color; ctx.beginPath(); line3(C, [0, 0, 0], scale(axis, len)); ctx.stroke();
    const tip = toCamera(C, scale(axis, len * 1.15));
    if (tip[2] > NEAR) { const s = toScreen(C, tip); ctx.fillStyle = color; ctx.fillText(name, s[0] - 3, s[1] + 4); }
  });
}
function drawTraces(C, frame) {
  traces.forEach((pts, i) => {
    const color = traceColors[i % traceColors.length];
    ctx.strokeStyle = color; ctx.lineWidth = 1.25;
    ctx.globalAlpha = 0.3; ctx.beginPath();
    for (let f = 0; f + 1 < pts.length; f++) line3(C, pts[f], pts[f + 1]);
    ctx.stroke();
    ctx.globalAlpha = 0.95; ctx.beginPath();
    for (let f = 0; f < frame; f++) line3(C, pts[f], pts[f + 1]);
    ctx.stroke();
    ctx.globalAlpha = 1;
  });
}
function drawMarkerDots(C, frame) {
  traces.forEach((pts, i) => {
    const q = toCamera(C, pts[frame]);
    if (q[2] <= NEAR) return;
    const s = toScreen(C, q);
    ctx.fillStyle = traceColors[i % traceColors.length];
    ctx.beginPath(); ctx.arc(s[0], s[1], 3, 0, 2 * Math.PI); ctx.fill();
    ctx.fillText(D.markers[i].name, s[0] + 6, s[1] - 6);
  });
}
function drawBodies(C, frame) {
  const light = unit(add(add(scale(C.fwd, -0.75), scale(C.upward, 0.55)), scale(C.right, -0.35)));
  const polys = [];
  for (let b = 0; b < nb; b++) {
    const ps = pose(frame, b), m = meshes[b];
    for (const face of m.faces) {
      const c = toWorld(ps, face.c), n = mat3Apply(ps.R, face.n);
      if (dot(n, sub(C.eye, c)) <= 0) continue;  // faces away from the camera
      const q = face.v.map(v => toCamera(C, toWorld(ps, v)));
      if (q.some(p => p[2] <= NEAR)) continue;
      const k = 0.32 + 0.68 * Math.max(0, dot(n, light));
      polys.push({ pts: q.map(p => toScreen(C, p)), depth: toCamera(C, c)[2],
                   color: 'rgb(' + m.rgb.map(x => Math.min(255, Math.round(x * k))).join(',') + ')' });
    }
  }
  polys.sort((a, b) => b.depth - a.depth);
  ctx.lineWidth = 0.75; ctx.lineJoin = 'round';
  for (const p of polys) {
    ctx.fillStyle = ctx.strokeStyle = p.color;
    ctx.beginPath(); ctx.moveTo(p.pts[0][0], p.pts[0][1]);
    for (let k = 1; k < p.pts.length; k++) ctx.lineTo(p.pts[k][0], p.pts[k][1]);
    ctx.closePath(); ctx.fill(); ctx.stroke();
  }
}
function drawLoopPins(C, frame) {
  ctx.lineWidth = 1.5;
  for (const l of D.loops)
    for (const [b, p] of [[l.bodyA, l.pointA], [l.bodyB, l.pointB]]) {
      const q = toCamera(C, toWorld(pose(frame, b), p));
      if (q[2] <= NEAR) continue;
      const s = toScreen(C, q);
      ctx.fillStyle = '#f2f2f2'; ctx.strokeStyle = '#222';
      ctx.beginPath(); ctx.arc(s[0], s[1], 3.5, 0, 2 * Math.PI); ctx.fill(); ctx.stroke();
    }
}

const el = id => document.getElementById(id);
const tracesBox = el('traces'), loopBox = el('loop'), speedBox = el('speed'), slider = el('slider');
const playButton = el('play'), timeLabel = el('time');
const duration = nf ? D.times[nf - 1] - D.times[0] : 0;
const decimals = duration > 0 && duration < 1 ? 4 : 3;
let frame = 0, playing = false;

function draw() {
  const g = ctx.createLinearGradient(0, 0, 0, H);
  g.addColorStop(0, '#2b323b'); g.addColorStop(1, '#15181c');
  ctx.fillStyle = g; ctx.fillRect(0, 0, W, H);
  const C = cameraBasis();
  if (nf === 0) {
    ctx.fillStyle = '#ccc'; ctx.font = '16px system-ui, sans-serif'; ctx.textAlign = 'center';
    ctx.fillText('no frames were recorded', W / 2, H / 2); ctx.textAlign = 'start';
  } else {
    drawGround(C);
    drawAxes(C);
    const showTraces = tracesBox.checked;
    if (dot(sub(C.eye, groundPoint(0, 0)), up) > 0) drawShadows(C, frame);  // seen from above the ground
    if (showTraces) drawTraces(C, frame);
    drawBodies(C, frame);
    drawLoopPins(C, frame);
    if (showTraces) drawMarkerDots(C, frame);
  }
  timeLabel.textContent = 't = ' + (nf ? D.times[frame] : 0).toFixed(decimals) + ' s';
  slider.value = frame;
  document.body.dataset.ready = '1';
}
let redrawQueued = false;
function requestDraw() {
  if (redrawQueued) return;
  redrawQueued = true;
  requestAnimationFrame(() => { redrawQueued = false; draw(); });
}

// ---------------------------------------------------------------- playback
let simTime = nf ? D.times[0] : 0, lastTick = null;
/** Last frame whose time is not after t. */
function frameAt(t) {
  let lo = 0, hi = nf - 1;
  while (lo < hi) { const mid = (lo + hi + 1) >> 1; if (D.times[mid] <= t) lo = mid; else hi = mid - 1; }
  return lo;
}
function setFrame(f) {
  frame = Math.max(0, Math.min(nf - 1, f));
  simTime = nf ? D.times[frame] : 0;
  requestDraw();
}
function tick(now) {
  if (!playing) return;
  if (lastTick !== null) {
    simTime += (now - lastTick) / 1000 * parseFloat(speedBox.value);
    const end = D.times[nf - 1];
    if (simTime > end) {
      if (loopBox.checked) simTime = D.times[0] + (simTime - end) % Math.max(duration, 1e-9);
      else { simTime = end; pause(); }
    }
    frame = frameAt(simTime);
    draw();
  }
  lastTick = now;
  if (playing) requestAnimationFrame(tick);
}
function play() {
  if (playing || nf < 2) return;
  if (frame === nf - 1) setFrame(0);  // at the end: start over
  playing = true; lastTick = null;
  playButton.textContent = 'Pause';
  requestAnimationFrame(tick);
}
function pause() {
  playing = false;
  playButton.textContent = 'Play';
}

// ---------------------------------------------------------------- controls
const blurAfter = handler => e => { handler(e); e.currentTarget.blur(); };  // keeps space for play/pause
playButton.addEventListener('click', blurAfter(() => (playing ? pause() : play())));
el('fit').addEventListener('click', blurAfter(() => { fit(); requestDraw(); }));
tracesBox.addEventListener('change', blurAfter(requestDraw));
loopBox.addEventListener('change', blurAfter(() => {}));
slider.max = Math.max(0, nf - 1);
slider.addEventListener('input', () => setFrame(parseInt(slider.value, 10)));
window.addEventListener('keydown', e => {
  const inField = e.target instanceof HTMLSelectElement || e.target === slider;
  if (e.code === 'Space' && !(e.target instanceof HTMLSelectElement)) { e.preventDefault(); playing ? pause() : play(); }
  else if (inField) return;
  else if (e.key === 'ArrowRight' || e.key === 'ArrowLeft') { pause(); setFrame(frame + (e.key === 'ArrowRight' ? 1 : -1)); }
  else if (e.key === 'Home') setFrame(0);
  else if (e.key === 'End') setFrame(nf - 1);
  else if (e.key === 'f') { fit(); requestDraw(); }
});

let drag = null;
canvas.addEventListener('contextmenu', e => e.preventDefault());
canvas.addEventListener('pointerdown', e => {
  drag = { x: e.clientX, y: e.clientY, pan: e.shiftKey || e.button === 1 || e.button === 2 };
  canvas.setPointerCapture(e.pointerId); canvas.classList.add('dragging');
});
canvas.addEventListener('pointermove', e => {
  if (!drag) return;
  const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
  drag.x = e.clientX; drag.y = e.clientY;
  if (drag.pan) {
    const C = cameraBasis(), s = cam.dist / C.focal;  // world length of a pixel at the target
    cam.target = add(cam.target, add(scale(C.right, -dx * s), scale(C.upward, dy * s)));
  } else {
    cam.yaw -= dx * 0.008;
    cam.pitch = Math.max(-1.5, Math.min(1.5, cam.pitch + dy * 0.008));
  }
  requestDraw();
});
const endDrag = () => { drag = null; canvas.classList.remove('dragging'); };
canvas.addEventListener('pointerup', endDrag);
canvas.addEventListener('pointercancel', endDrag);
canvas.addEventListener('wheel', e => {
  e.preventDefault();
  const dy = e.deltaMode === 1 ? e.deltaY * 16 : e.deltaY;
  cam.dist = Math.max(1e-3, cam.dist * Math.exp(Math.max(-100, Math.min(100, dy)) * 0.002));
  requestDraw();
}, { passive: false });
window.addEventListener('resize', () => { resize(); draw(); });

// ---------------------------------------------------------------- start
el('info').textContent = nb + (nb === 1 ? ' body' : ' bodies') + ' \u00b7 ' + nf + (nf === 1 ? ' frame' : ' frames') +
  (nf > 1 ? ' \u00b7 ' + D.times[0].toFixed(decimals) + '\u2013' + D.times[nf - 1].toFixed(decimals) + ' s' : '');
window.articula = { frameCount: nf, currentFrame: () => frame, play, pause, isPlaying: () => playing };
resize();
fit();
draw();
</script>
</body>
</html>
)HTML";

}  // namespace articula::animation_page
