// Writes public/icon-192.png, public/icon-512.png and public/icon.svg: a tiny flash chip
// (blocks of pages in the app's Okabe–Ito colours). Node built-ins only; run once by hand
// (`node scripts/make-icons.mjs`), the files are committed.
import { deflateSync } from 'node:zlib';
import { writeFileSync } from 'node:fs';

const BG = [0x1f, 0x29, 0x37];
const COLS = [
  [0x00, 0x9e, 0x73],
  [0xd5, 0x5e, 0x00],
  [0x00, 0x72, 0xb2],
  [0xf0, 0xf0, 0xf0],
];
// 4 blocks x 4 pages: valid, invalid, data band, erased
const GRID = ['0013', '0103', '0133', '1033'];

function crc32(buf) {
  let c,
    crc = 0xffffffff;
  for (const b of buf) {
    c = (crc ^ b) & 0xff;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    crc = (crc >>> 8) ^ c;
  }
  return (crc ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}
function png(size) {
  const rows = [];
  const cell = size / 5.2;
  const gap = cell * 0.2;
  const origin = (size - 4 * cell - 3 * gap) / 2 + gap * 1.5;
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 3);
    for (let x = 0; x < size; x++) {
      let col = BG;
      const bx = Math.floor((x - origin + gap) / (cell + gap * 0.25));
      const by = Math.floor((y - origin + gap) / (cell + gap * 0.25));
      const inX = x - origin + gap - bx * (cell + gap * 0.25);
      const inY = y - origin + gap - by * (cell + gap * 0.25);
      if (bx >= 0 && bx < 4 && by >= 0 && by < 4 && inX < cell - gap * 0.5 && inY < cell - gap * 0.5)
        col = COLS[Number(GRID[bx][by])];
      row.set(col, 1 + x * 3);
    }
    rows.push(row);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
const hex = (c) => `#${c.map((v) => v.toString(16).padStart(2, '0')).join('')}`;
let rects = '';
for (let b = 0; b < 4; b++)
  for (let p = 0; p < 4; p++)
    rects += `<rect x="${10 + b * 28}" y="${10 + p * 28}" width="24" height="24" rx="3" fill="${hex(COLS[Number(GRID[b][p])])}"/>`;
writeFileSync(
  new URL('../public/icon.svg', import.meta.url),
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 128 128"><rect width="128" height="128" rx="16" fill="${hex(BG)}"/>${rects}</svg>\n`,
);
for (const s of [192, 512]) writeFileSync(new URL(`../public/icon-${s}.png`, import.meta.url), png(s));
