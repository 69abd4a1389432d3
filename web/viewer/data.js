// The page data that AnimationWriter writes (src/io/animation.cpp, animation_scene.cpp): the model
// as JSON, the recorded frames as base64 arrays of little-endian numbers (times: float64; poses:
// float32, per frame and body x y z and the quaternion x y z w; values: float64, per frame the
// signals in `signals` order; mesh vertices: float32 x y z; mesh indices: uint16 or uint32).

function decode(base64, Type) {
  const text = atob(base64), bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return new Type(bytes.buffer, 0, bytes.length / Type.BYTES_PER_ELEMENT);
}

export function readData(element) {
  const d = JSON.parse(element.textContent);
  return {
    ...d,
    times: decode(d.times, Float64Array),
    poses: decode(d.poses, Float32Array),
    values: decode(d.values, Float64Array),
    meshes: d.meshes.map(m => ({
      file: m.file,
      vertices: decode(m.vertices, Float32Array),
      indices: decode(m.indices, m.indexBytes === 2 ? Uint16Array : Uint32Array),
    })),
  };
}

/** Position [x, y, z] and quaternion [x, y, z, w] of body b (0-based) in frame f. */
export function bodyPose(data, f, b) {
  const o = (f * data.bodies.length + b) * 7, P = data.poses;
  return { p: [P[o], P[o + 1], P[o + 2]], q: [P[o + 3], P[o + 4], P[o + 5], P[o + 6]] };
}

/** Value of signal s in frame f. */
export const signalValue = (data, f, s) => data.values[f * data.signals.length + s];
