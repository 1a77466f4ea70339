// The built-in sample image, drawn in the page so the demo needs no image files: colour
// gradients (smooth areas show interpolation), grid lines and text (straight edges show how a
// warp bends them), a Siemens star and a checkerboard (fine detail shows aliasing, where
// nearest, linear and cubic differ most).

/** Draws the pattern onto a new canvas of `size` × `size` pixels and returns the canvas. */
export function drawSampleImage(size = 1024) {
  const canvas = document.createElement('canvas');
  canvas.width = size;
  canvas.height = size;
  const g = canvas.getContext('2d');
  const u = size / 16;  // one grid cell

  const hues = g.createLinearGradient(0, 0, size, 0);
  for (let i = 0; i <= 6; ++i) hues.addColorStop(i / 6, `hsl(${i * 60} 85% 55%)`);
  g.fillStyle = hues;
  g.fillRect(0, 0, size, size);
  const shade = g.createLinearGradient(0, 0, 0, size);
  shade.addColorStop(0, 'rgb(255 255 255 / 0.55)');
  shade.addColorStop(0.5, 'rgb(255 255 255 / 0)');
  shade.addColorStop(1, 'rgb(0 0 0 / 0.6)');
  g.fillStyle = shade;
  g.fillRect(0, 0, size, size);

  // Grid lines, every fourth one heavier.
  for (let i = 0; i <= 16; ++i) {
    g.strokeStyle = i % 4 === 0 ? 'rgb(20 20 30 / 0.9)' : 'rgb(255 255 255 / 0.7)';
    g.lineWidth = i % 4 === 0 ? Math.max(2, size / 256) : Math.max(1, size / 1024);
    g.beginPath();
    g.moveTo(i * u, 0);
    g.lineTo(i * u, size);
    g.moveTo(0, i * u);
    g.lineTo(size, i * u);
    g.stroke();
  }

  // A Siemens star (top left) and a checkerboard (bottom right).
  const star = { x: 4 * u, y: 4 * u, r: 3.2 * u };
  g.fillStyle = 'white';
  g.beginPath();
  g.arc(star.x, star.y, star.r, 0, 2 * Math.PI);
  g.fill();
  g.fillStyle = 'black';
  const spokes = 24;
  for (let k = 0; k < spokes; ++k) {
    const a = (2 * Math.PI * k) / spokes;
    g.beginPath();
    g.moveTo(star.x, star.y);
    g.arc(star.x, star.y, star.r, a, a + Math.PI / spokes);
    g.closePath();
    g.fill();
  }
  const cell = u / 4;
  for (let i = 0; i < 16; ++i) {
    for (let j = 0; j < 16; ++j) {
      g.fillStyle = (i + j) % 2 ? 'white' : 'black';
      g.fillRect(10 * u + j * cell, 10 * u + i * cell, cell, cell);
    }
  }

  // Rings around the centre, and the name across it.
  g.lineWidth = Math.max(2, size / 200);
  for (let k = 1; k <= 3; ++k) {
    g.strokeStyle = k % 2 ? 'rgb(255 255 255 / 0.9)' : 'rgb(20 20 30 / 0.9)';
    g.beginPath();
    g.arc(size / 2, size / 2, k * 1.1 * u, 0, 2 * Math.PI);
    g.stroke();
  }
  g.textAlign = 'center';
  g.textBaseline = 'middle';
  g.font = `bold ${Math.round(1.7 * u)}px system-ui, sans-serif`;
  g.lineWidth = Math.max(2, size / 170);
  g.strokeStyle = 'rgb(20 20 30)';
  g.fillStyle = 'white';
  g.strokeText('gridsample', size / 2, 12.5 * u);
  g.fillText('gridsample', size / 2, 12.5 * u);

  // Labels at the heavy grid crossings.
  g.font = `${Math.round(0.32 * u)}px ui-monospace, monospace`;
  g.fillStyle = 'rgb(20 20 30)';
  g.textAlign = 'left';
  g.textBaseline = 'top';
  for (let i = 0; i < 4; ++i) {
    for (let j = 0; j < 4; ++j) {
      g.fillText(`${j * 4},${i * 4}`, j * 4 * u + 0.15 * u, i * 4 * u + 0.15 * u);
    }
  }
  return canvas;
}
