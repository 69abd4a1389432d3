// Three.js objects for the shapes of a body, in the body's frame (the shape records of
// src/io/animation_scene.cpp): box, cylinder and capsule (along the shape's z), sphere, mesh
// (triangles from the page data), and the box that stands in for an unreadable mesh.
import {
  BoxGeometry, BufferAttribute, BufferGeometry, CapsuleGeometry, CylinderGeometry, DoubleSide, EdgesGeometry,
  FrontSide, LineBasicMaterial, LineSegments, Matrix4, Mesh, MeshStandardMaterial, SphereGeometry,
} from 'three';

const palette = ['#4e8fd6', '#e0873a', '#5bb36b', '#c9598d', '#d8c24a', '#7d6fd3', '#48b8b8', '#d65f5f'];

/** The colour of body i's shapes that name none. */
export const bodyColor = i => palette[i % palette.length];

function geometry(shape, meshes, minimumEdge) {
  const [sx, sy, sz] = shape.size ?? [0, 0, 0], r = sx / 2;
  switch (shape.type) {
    case 'box': return new BoxGeometry(...[sx, sy, sz].map(x => Math.max(x, minimumEdge)));
    case 'cylinder': return new CylinderGeometry(r, r, sz, 32).rotateX(Math.PI / 2);  // three's axis is y
    case 'capsule': return new CapsuleGeometry(r, sz, 8, 24).rotateX(Math.PI / 2);
    case 'sphere': return new SphereGeometry(r, 32, 16);
    case 'mesh': {
      const m = meshes[shape.mesh], g = new BufferGeometry();
      g.setAttribute('position', new BufferAttribute(m.vertices, 3));
      g.setIndex(new BufferAttribute(m.indices, 1));
      g.computeVertexNormals();
      return g;
    }
  }
  throw new Error(`unknown shape type '${shape.type}'`);
}

/**
 * The object of one shape, placed in its body's frame. A placeholder (the inertia box of a body
 * whose mesh file could not be read) is translucent with orange edges, each edge at least
 * `minimumEdge` long (a point mass has none).
 */
export function shapeObject(shape, meshes, color, minimumEdge) {
  const isMesh = shape.type === 'mesh', g = geometry(shape, meshes, shape.placeholder ? minimumEdge : 0);
  const material = new MeshStandardMaterial({
    color: shape.color ?? color, roughness: 0.55, metalness: 0.05, flatShading: isMesh,
    side: isMesh ? DoubleSide : FrontSide,  // mesh files do not always keep their faces' orientation
    transparent: !!shape.placeholder, opacity: shape.placeholder ? 0.35 : 1,
  });
  const object = new Mesh(g, material);
  object.castShadow = true;
  if (shape.placeholder) object.add(new LineSegments(new EdgesGeometry(g), new LineBasicMaterial({ color: '#ff8a50' })));
  if (isMesh) object.scale.set(...shape.scale);
  object.position.set(...shape.pos);
  const R = shape.rot;
  object.quaternion.setFromRotationMatrix(new Matrix4().set(R[0], R[1], R[2], 0, R[3], R[4], R[5], 0, R[6], R[7], R[8], 0, 0, 0, 0, 1));
  return object;
}

/** A small sphere: the centre of mass of a body without shapes, a marker, a loop-closure point. */
export function dot(radius, material) {
  return new Mesh(new SphereGeometry(radius, 16, 10), material);
}
