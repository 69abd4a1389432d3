// The 3D view: the bodies' shapes, a ground grid with shadows, the world axes, marker traces and
// loop-closure points, in three.js. Up is against the model's gravity; the default view frames
// the whole motion. OrbitControls orbit, pan and zoom; the view renders on demand only.
import {
  AxesHelper, Box3, BufferAttribute, BufferGeometry, DirectionalLight, GridHelper, Group, HemisphereLight, Line,
  LineBasicMaterial, MeshBasicMaterial, MeshStandardMaterial, Mesh, PerspectiveCamera, PlaneGeometry, Quaternion, Scene,
  ShadowMaterial, Vector3, WebGLRenderer,
} from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import { bodyPose } from './data.js';
import { niceStep } from './format.js';
import { bodyColor, dot, shapeObject } from './shapes.js';

export const traceColors = ['#ffd54a', '#4ee6e0', '#ff7ad9', '#a6ff4d', '#ff9f43'];
const FOV = 35;  // vertical, degrees

/** Up (against gravity), front (towards the default eye) and side: a right-handed basis. */
function viewBasis(gravity) {
  const g = new Vector3(...gravity);
  const up = g.lengthSq() > 0 ? g.negate().normalize() : new Vector3(0, 1, 0);
  // Planar mechanisms in x-y face the camera when y is up; with z up the view is from -y.
  const ref = Math.abs(up.z) < 0.9 ? new Vector3(0, 0, 1) : new Vector3(0, -1, 0);
  const front = ref.addScaledVector(up, -ref.dot(up)).normalize();
  return { up, front, side: new Vector3().crossVectors(up, front) };
}

/** Up to `count` frame indices spread over the run, the last one included. */
function someFrames(nf, count) {
  const out = [], step = Math.max(1, Math.floor(nf / count));
  for (let f = 0; f < nf; f += step) out.push(f);
  if (nf && out[out.length - 1] !== nf - 1) out.push(nf - 1);
  return out;
}

export class View {
  constructor(canvas, labels, data) {
    this.data = data;
    this.renderer = new WebGLRenderer({ canvas, antialias: true, alpha: true });  // the page's gradient shows through
    this.renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 2));
    this.renderer.shadowMap.enabled = true;
    this.scene = new Scene();
    this.basis = viewBasis(data.gravity);
    this.camera = new PerspectiveCamera(FOV, 1, 1e-3, 1e3);
    this.camera.up.copy(this.basis.up);  // before OrbitControls, which orbits about it
    this.controls = new OrbitControls(this.camera, canvas);
    this.controls.addEventListener('change', () => this.requestRender());

    this.dotRadius = this.dotSize();
    this.bodies = data.bodies.map((b, i) => this.addBody(b, i));
    this.base = this.addGroundShapes(data.groundShapes);
    this.traces = data.markers.map((m, i) => this.addTrace(m, traceColors[i % traceColors.length]));
    for (const l of data.loops) for (const [b, p] of [[l.bodyA, l.pointA], [l.bodyB, l.pointB]]) this.pin(b, p);
    this.bounds = this.motionBounds();
    this.addGroundAndLights();
    this.labels = this.addLabels(labels);
    if (data.frameCount) this.setFrame(0);
    else {  // nothing to place: no bodies, no markers
      for (const g of this.bodies) g.visible = false;
      this.showTraces(false, []);
    }
    this.resize();
    this.resetView();
  }

  /** Radius of the dots (bodies without shapes, markers): small against the spread of the motion. */
  dotSize() {
    const box = new Box3(), d = this.data;
    for (const f of someFrames(d.frameCount, 100)) for (let b = 0; b < d.bodies.length; b++) box.expandByPoint(new Vector3(...bodyPose(d, f, b).p));
    const spread = box.isEmpty() ? 0 : box.getSize(new Vector3()).length();
    return spread > 0 ? Math.min(0.02 * spread, 0.05) : 0.03;
  }

  addBody(body, i) {
    const group = new Group(), color = bodyColor(i);
    for (const s of body.shapes) group.add(shapeObject(s, this.data.meshes, color, 2 * this.dotRadius));
    if (!body.shapes.length) {
      const centre = dot(this.dotRadius, new MeshStandardMaterial({ color, roughness: 0.5 }));
      centre.position.set(...body.com);
      centre.castShadow = true;
      group.add(centre);
    }
    this.scene.add(group);
    return group;
  }

  /** Shapes fixed in the world (a robot's base), in one grey tone. */
  addGroundShapes(shapes) {
    const group = new Group();
    for (const s of shapes) group.add(shapeObject(s, this.data.meshes, '#6b7380', 2 * this.dotRadius));
    this.scene.add(group);
    return group;
  }

  /** A small sphere at point p of body b (-1: the ground). */
  pin(b, p, material = new MeshBasicMaterial({ color: '#f2f2f2' }), radius = 0.35 * this.dotRadius) {
    const m = dot(radius, material);
    m.position.set(...p);
    (b < 0 ? this.scene : this.bodies[b]).add(m);
    return m;
  }

  /** A marker: its dot, and its path over the whole run (faint) and up to the current frame. */
  addTrace(marker, color) {
    const d = this.data, nf = d.frameCount, points = new Float32Array(3 * nf), local = new Vector3(...marker.pos);
    const p = new Vector3(), q = new Quaternion();
    for (let f = 0; f < nf; f++) {
      if (marker.body < 0) p.copy(local);
      else {
        const pose = bodyPose(d, f, marker.body);
        p.copy(local).applyQuaternion(q.set(...pose.q).normalize()).add(new Vector3(...pose.p));
      }
      p.toArray(points, 3 * f);
    }
    const positions = new BufferAttribute(points, 3), lines = [];
    for (const opacity of [0.28, 0.95]) {
      const g = new BufferGeometry().setAttribute('position', positions);
      const line = new Line(g, new LineBasicMaterial({ color, transparent: true, opacity }));
      this.scene.add(line);
      lines.push(line);
    }
    const markerDot = this.pin(marker.body, marker.pos, new MeshBasicMaterial({ color }), 0.45 * this.dotRadius);
    return { lines, dot: markerDot };
  }

  /** World bounding box of every body's shapes and every trace over the run. */
  motionBounds() {
    const box = new Box3(), d = this.data;
    for (const f of someFrames(d.frameCount, 200)) {
      this.placeBodies(f);
      for (const g of this.bodies) box.expandByObject(g);
    }
    box.expandByObject(this.base);
    for (const t of this.traces) {
      t.lines[0].geometry.computeBoundingBox();
      box.union(t.lines[0].geometry.boundingBox);
    }
    if (box.isEmpty()) box.set(new Vector3(-0.5, -0.5, -0.5), new Vector3(0.5, 0.5, 0.5));
    const size = Math.max(box.getSize(new Vector3()).length(), 1e-3);
    return { box, size, centre: box.getCenter(new Vector3()) };
  }

  /** Grid and shadow-catching plane on the ground, below the motion or through the origin; lights. */
  addGroundAndLights() {
    const { up, front, side } = this.basis, { box, size, centre } = this.bounds;
    let lowest = Infinity;
    for (let k = 0; k < 8; k++) {
      const c = new Vector3(k & 1 ? box.max.x : box.min.x, k & 2 ? box.max.y : box.min.y, k & 4 ? box.max.z : box.min.z);
      lowest = Math.min(lowest, c.dot(up));
    }
    const ground = lowest >= 0 ? 0 : lowest - 0.01 * size;
    const step = niceStep(size / 5), cells = 20;
    const snap = v => Math.round(centre.dot(v) / step) * step;
    const origin = up.clone().multiplyScalar(ground).addScaledVector(side, snap(side)).addScaledVector(front, snap(front));
    const flat = new Quaternion().setFromUnitVectors(new Vector3(0, 1, 0), up);  // three's grid lies in x-z

    const grid = new GridHelper(cells * step, cells, '#66717e', '#4a535e');
    grid.position.copy(origin);
    grid.quaternion.copy(flat);
    this.scene.add(grid);
    const floor = new Mesh(new PlaneGeometry(cells * step, cells * step), new ShadowMaterial({ opacity: 0.32 }));
    floor.quaternion.setFromUnitVectors(new Vector3(0, 0, 1), up);
    floor.position.copy(origin).addScaledVector(up, -1e-4 * size);
    floor.receiveShadow = true;
    this.scene.add(floor);
    this.axisLength = niceStep(size / 8);
    this.scene.add(new AxesHelper(this.axisLength));

    const sky = new HemisphereLight('#e8eef7', '#4b4136', 1.9);
    sky.position.copy(up);
    this.scene.add(sky);
    const sun = new DirectionalLight('#ffffff', 2.3);
    const towardsSun = up.clone().addScaledVector(front, 0.45).addScaledVector(side, 0.3).normalize();
    sun.position.copy(centre).addScaledVector(towardsSun, 2 * size);
    sun.target.position.copy(centre);
    sun.castShadow = true;
    sun.shadow.mapSize.set(1024, 1024);
    const half = 0.8 * size, cam = sun.shadow.camera;
    Object.assign(cam, { left: -half, right: half, bottom: -half, top: half, near: 0.5 * size, far: 4 * size });
    cam.updateProjectionMatrix();
    sun.shadow.bias = -5e-4;
    this.scene.add(sun, sun.target);
  }

  /** HTML labels: the axes' names at their tips and the markers' names beside their dots. */
  addLabels(container) {
    const labels = [], len = 1.12 * this.axisLength;
    const add = (text, color, position) => {
      const el = document.createElement('span');
      el.textContent = text;
      el.style.color = color;
      container.appendChild(el);
      labels.push({ el, position });
    };
    [['x', '#ff5a4e'], ['y', '#57d45a'], ['z', '#4f8df0']].forEach(([name, color], k) =>
      add(name, color, () => new Vector3().setComponent(k, len)));
    this.data.markers.forEach((m, i) => {
      const t = this.traces[i];
      add(m.name, traceColors[i % traceColors.length], () => (t.dot.visible ? t.dot.getWorldPosition(new Vector3()) : null));
    });
    return labels;
  }

  placeBodies(f) {
    for (let b = 0; b < this.bodies.length; b++) {
      const pose = bodyPose(this.data, f, b), g = this.bodies[b];
      g.position.set(...pose.p);
      g.quaternion.set(...pose.q).normalize();
      g.updateMatrixWorld(true);
    }
  }

  setFrame(f) {
    this.placeBodies(f);
    for (const t of this.traces) t.lines[1].geometry.setDrawRange(0, f + 1);
    this.requestRender();
  }

  /** Shows the traces (and dots) of the markers whose entry in `each` is true, or none when `all` is false. */
  showTraces(all, each) {
    this.traces.forEach((t, i) => { for (const x of [...t.lines, t.dot]) x.visible = all && each[i]; });
    this.requestRender();
  }

  /** The default view: slightly oblique from the front and above, the whole motion in frame. */
  resetView() {
    const { up, front, side } = this.basis, { box, size, centre } = this.bounds;
    const yaw = 0.3, pitch = 0.22;
    const toEye = front.clone().multiplyScalar(Math.cos(pitch) * Math.cos(yaw))
      .addScaledVector(side, Math.cos(pitch) * Math.sin(yaw)).addScaledVector(up, Math.sin(pitch));
    const fwd = toEye.clone().negate(), right = new Vector3().crossVectors(fwd, up).normalize();
    const upward = new Vector3().crossVectors(right, fwd);
    const tanV = Math.tan((FOV / 2) * Math.PI / 180), tanH = tanV * this.camera.aspect;
    let distance = 1e-3;
    for (let k = 0; k < 8; k++) {  // every corner of the box within 88 % of the view
      const d = new Vector3(k & 1 ? box.max.x : box.min.x, k & 2 ? box.max.y : box.min.y, k & 4 ? box.max.z : box.min.z).sub(centre);
      const z = d.dot(fwd);
      distance = Math.max(distance, Math.abs(d.dot(right)) / (0.88 * tanH) - z, Math.abs(d.dot(upward)) / (0.88 * tanV) - z);
    }
    Object.assign(this.camera, { near: size * 2e-3, far: 40 * distance + 4 * size });
    this.camera.updateProjectionMatrix();
    this.camera.position.copy(centre).addScaledVector(toEye, distance);
    this.controls.target.copy(centre);
    this.controls.minDistance = size * 0.02;
    this.controls.maxDistance = 30 * distance;
    this.controls.update();
    this.requestRender();
  }

  resize() {
    const el = this.renderer.domElement, w = Math.max(1, el.clientWidth), h = Math.max(1, el.clientHeight);
    this.renderer.setSize(w, h, false);
    this.camera.aspect = w / h;
    this.camera.updateProjectionMatrix();
    this.render();
  }

  requestRender() {
    if (this.queued) return;
    this.queued = true;
    requestAnimationFrame(() => this.render());
  }

  render() {
    this.queued = false;
    this.renderer.render(this.scene, this.camera);
    const el = this.renderer.domElement, w = el.clientWidth, h = el.clientHeight;
    for (const { el: label, position } of this.labels) {
      const p = position();
      const ndc = p && p.project(this.camera);
      const visible = ndc && ndc.z > -1 && ndc.z < 1;
      label.hidden = !visible;
      if (visible) label.style.transform = `translate(${((ndc.x + 1) / 2) * w + 6}px, ${((1 - ndc.y) / 2) * h - 18}px)`;
    }
  }
}
