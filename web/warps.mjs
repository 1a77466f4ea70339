// The demo's warps: each one maps an output pixel to the point of the input it shows, which is
// what a GridSample grid holds. Plain functions of their parameters (no DOM), so the browser
// test can compute the same grids in Node.
//
// The warps work in "square" coordinates: the image's centre is 0 and its long side spans
// -1..1, so rotations and circles stay round on images that are not square. Each output pixel
// starts at the normalised coordinate GridSample maps back onto the same relative place of the
// input (the pixel centre for align_corners=0, the pixel itself for align_corners=1), so a warp
// that moves nothing reproduces the input when the sizes match.

/**
 * The warps and their parameters, in the order the page shows them: for each warp a label and
 * `params`, a list of { name, label, min, max, step, value (the default) } shown as sliders,
 * or as a number field where `input` says 'number'.
 */
export const WARPS = {
  affine: {
    label: 'Affine',
    params: [
      { name: 'rotate', label: 'rotate (°)', min: -180, max: 180, step: 1, value: 20 },
      { name: 'zoom', label: 'zoom', min: 0.25, max: 4, step: 0.01, value: 0.8 },
      { name: 'shear', label: 'shear', min: -1, max: 1, step: 0.01, value: 0.15 },
      { name: 'x', label: 'translate x', min: -1, max: 1, step: 0.01, value: 0 },
      { name: 'y', label: 'translate y', min: -1, max: 1, step: 0.01, value: 0 },
    ],
  },
  lens: {
    label: 'Barrel / pincushion lens',
    params: [
      { name: 'strength', label: 'strength (+ barrel, − pincushion)', min: -1, max: 1,
        step: 0.01, value: 0.35 },
      { name: 'zoom', label: 'zoom', min: 0.25, max: 4, step: 0.01, value: 1 },
    ],
  },
  swirl: {
    label: 'Swirl',
    params: [
      { name: 'strength', label: 'strength (radians)', min: -12, max: 12, step: 0.1, value: 4 },
      { name: 'radius', label: 'radius', min: 0.05, max: 2, step: 0.01, value: 0.9 },
      { name: 'x', label: 'centre x', min: -1, max: 1, step: 0.01, value: 0 },
      { name: 'y', label: 'centre y', min: -1, max: 1, step: 0.01, value: 0 },
    ],
  },
  elastic: {
    label: 'Random elastic field',
    params: [
      { name: 'amplitude', label: 'amplitude', min: 0, max: 0.5, step: 0.005, value: 0.08 },
      { name: 'cells', label: 'cells across (smoothness)', min: 1, max: 48, step: 1, value: 6 },
      { name: 'seed', label: 'seed', min: 0, max: 9999, step: 1, value: 1, input: 'number' },
    ],
  },
};

/** The warp's parameters with defaults filled in for the missing ones; throws on unknown names. */
export function warpParams(warp, params = {}) {
  const definition = WARPS[warp];
  if (!definition) {
    throw new RangeError(`warp must be one of ${Object.keys(WARPS).join(', ')}, ` +
                         `got ${JSON.stringify(warp)}`);
  }
  const result = {};
  for (const { name, value } of definition.params) result[name] = value;
  for (const [name, value] of Object.entries(params)) {
    if (!(name in result)) throw new RangeError(`${warp}: no parameter ${JSON.stringify(name)}`);
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      throw new RangeError(`${warp}: ${name} must be a finite number, got ${value}`);
    }
    result[name] = value;
  }
  return result;
}

// Normalised coordinate of pixel i of n along an axis (see the top of the file).
function normalised(i, n, alignCorners) {
  if (alignCorners) return n === 1 ? 0 : (2 * i) / (n - 1) - 1;
  return (2 * i + 1) / n - 1;
}

/**
 * The affine warp as ONNX AffineGrid's theta for an output of `width` × `height`: 2 × 3,
 * row-major, mapping each normalised output point (x, y, 1) to the normalised input point it
 * shows. The image is sheared, rotated, zoomed and moved in square coordinates (see the top);
 * theta is the inverse of that, rescaled to each axis's own normalised range.
 */
export function affineTheta({ rotate, zoom, shear, x, y }, width, height) {
  const angle = (rotate * Math.PI) / 180;
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  // In square coordinates, q = M (p - (x, y)); normalised coordinates are square ones times
  // the long side over the axis's own.
  const [a, b, c, d] = [(cos + shear * sin) / zoom, (sin - shear * cos) / zoom, -sin / zoom,
                        cos / zoom];
  const long = Math.max(width, height);
  const sx = width / long;
  const sy = height / long;
  return [a, (b * sy) / sx, -(a * x + b * y) / sx, (c * sx) / sy, d, -(c * x + d * y) / sy];
}

/**
 * The grid ONNX AffineGrid(theta, [1, C, height, width], align_corners) gives for a 2 × 3
 * `theta` (row-major): a Float32Array of height × width (x, y) pairs, computed here in float64.
 * The page takes the package's affineGrid; this is the model the demo's test holds it to.
 */
export function affineGridOf(theta, width, height, alignCorners) {
  const grid = new Float32Array(width * height * 2);
  for (let i = 0; i < height; ++i) {
    const yn = normalised(i, height, alignCorners);
    for (let j = 0; j < width; ++j) {
      const xn = normalised(j, width, alignCorners);
      const k = (i * width + j) * 2;
      grid[k] = theta[0] * xn + theta[1] * yn + theta[2];
      grid[k + 1] = theta[3] * xn + theta[4] * yn + theta[5];
    }
  }
  return grid;
}

// A point function (px, py, q) that stores the point (px, py) shows in q[0], q[1] (square
// coordinates), for the lens and the swirl; q saves an array per pixel.
const POINT_WARPS = {
  lens({ strength, zoom }) {
    return (px, py, q) => {
      const scale = (1 + strength * (px * px + py * py)) / zoom;
      q[0] = px * scale;
      q[1] = py * scale;
    };
  },
  swirl({ strength, radius, x, y }) {
    return (px, py, q) => {
      const dx = px - x;
      const dy = py - y;
      const falloff = Math.max(0, 1 - Math.hypot(dx, dy) / radius);
      const angle = strength * falloff * falloff;
      const cos = Math.cos(angle);
      const sin = Math.sin(angle);
      q[0] = x + cos * dx - sin * dy;
      q[1] = y + sin * dx + cos * dy;
    };
  },
};

// A random value in [-1, 1) for a lattice point, from an integer hash of the seed, the point
// and the component: the field at a place does not depend on the image size.
function latticeValue(seed, ix, iy, component) {
  let h = Math.imul(seed | 0, 0x9e3779b1) ^ Math.imul(ix | 0, 0x85ebca77) ^
          Math.imul(iy | 0, 0xc2b2ae3d) ^ Math.imul(component + 1, 0x27d4eb2f);
  h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d);
  h = Math.imul(h ^ (h >>> 12), 0x297a2d39);
  h ^= h >>> 15;
  return (h >>> 0) / 2 ** 31 - 1;
}

// The uniform cubic B-spline's four weights at fraction t: a smooth (C2) blend of random
// values, so the field has no kinks at the lattice lines.
function bSplineWeights(t) {
  const s = 1 - t;
  return [(s * s * s) / 6, (3 * t * t * t - 6 * t * t + 4) / 6,
          (-3 * t * t * t + 3 * t * t + 3 * t + 1) / 6, (t * t * t) / 6];
}

// Per pixel along one axis: the first lattice index and the four B-spline weights, for
// square coordinates `coords` and a lattice of `spacing`.
function latticeTaps(coords, spacing) {
  return coords.map((c) => {
    const f = c / spacing;
    const first = Math.floor(f) - 1;
    return { first, weights: bSplineWeights(f - Math.floor(f)) };
  });
}

// The elastic displacement at every pixel: random lattice values blended with B-spline
// weights, axis by axis (the lattice rows first, along x, then along y).
function elasticField({ amplitude, cells, seed }, xs, ys, out) {
  const spacing = 2 / Math.max(1, Math.round(cells));
  const columns = latticeTaps(xs, spacing);
  const rows = latticeTaps(ys, spacing);
  const ixMin = columns[0].first;
  const iyMin = rows[0].first;
  const ixCount = columns[columns.length - 1].first + 4 - ixMin;
  const iyCount = rows[rows.length - 1].first + 4 - iyMin;
  const width = xs.length;
  // alongX[component][lattice row][pixel column]
  const alongX = [0, 1].map((component) => {
    const table = new Float64Array(iyCount * width);
    for (let r = 0; r < iyCount; ++r) {
      const values = Array.from({ length: ixCount },
                                (_, k) => latticeValue(seed, ixMin + k, iyMin + r, component));
      for (let j = 0; j < width; ++j) {
        const { first, weights } = columns[j];
        let sum = 0;
        for (let t = 0; t < 4; ++t) sum += weights[t] * values[first - ixMin + t];
        table[r * width + j] = sum;
      }
    }
    return table;
  });
  for (let i = 0; i < ys.length; ++i) {
    const { first, weights } = rows[i];
    for (let j = 0; j < width; ++j) {
      for (let component = 0; component < 2; ++component) {
        const table = alongX[component];
        let sum = 0;
        for (let t = 0; t < 4; ++t) sum += weights[t] * table[(first - iyMin + t) * width + j];
        out[(i * width + j) * 2 + component] = amplitude * sum;
      }
    }
  }
}

/**
 * The grid for `warp` with `params` (missing ones take their defaults) and an output of
 * `width` × `height` pixels: a Float32Array of height × width (x, y) pairs, the layout of a
 * [1, height, width, 2] GridSample grid. `alignCorners` must match the GridSample call's.
 */
export function makeGrid(warp, params, width, height, alignCorners) {
  for (const [name, value] of [['width', width], ['height', height]]) {
    if (!Number.isInteger(value) || value < 1) {
      throw new RangeError(`makeGrid: ${name} must be a whole number ≥ 1, got ${value}`);
    }
  }
  const p = warpParams(warp, params);
  if (warp === 'affine') {
    return affineGridOf(affineTheta(p, width, height), width, height, alignCorners);
  }
  const long = Math.max(width, height);
  // Square coordinates of the pixels along each axis.
  const xs = Array.from({ length: width },
                        (_, j) => (normalised(j, width, alignCorners) * width) / long);
  const ys = Array.from({ length: height },
                        (_, i) => (normalised(i, height, alignCorners) * height) / long);
  const grid = new Float32Array(width * height * 2);
  const toX = long / width;
  const toY = long / height;
  if (warp === 'elastic') {
    const field = new Float64Array(width * height * 2);
    elasticField(p, xs, ys, field);
    for (let i = 0; i < height; ++i) {
      for (let j = 0; j < width; ++j) {
        const k = (i * width + j) * 2;
        grid[k] = (xs[j] + field[k]) * toX;
        grid[k + 1] = (ys[i] + field[k + 1]) * toY;
      }
    }
    return grid;
  }
  const map = POINT_WARPS[warp](p);
  const q = new Float64Array(2);
  for (let i = 0; i < height; ++i) {
    for (let j = 0; j < width; ++j) {
      map(xs[j], ys[i], q);
      const k = (i * width + j) * 2;
      grid[k] = q[0] * toX;
      grid[k + 1] = q[1] * toY;
    }
  }
  return grid;
}
