// Makes app/favicon.ico from app/icon.svg: `node scripts/favicon.mjs` after changing the icon.
// Pages link the SVG icon, but browsers and other clients (feed readers, bookmarks) still ask for
// /favicon.ico. The file holds the icon drawn at 16, 32 and 48 px by next/og (satori and resvg,
// already a dependency) as PNG images, which an ICO file may hold since Windows Vista.
import fs from 'node:fs';
import path from 'node:path';
import { createElement } from 'react';
import { ImageResponse } from 'next/og.js';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const svg = fs.readFileSync(path.join(root, 'app', 'icon.svg'));
const source = `data:image/svg+xml;base64,${svg.toString('base64')}`;
const sizes = [16, 32, 48];

async function png(size) {
  const image = createElement('img', { src: source, width: size, height: size });
  const root = createElement('div', { style: { display: 'flex', width: size, height: size } }, image);
  return Buffer.from(await new ImageResponse(root, { width: size, height: size }).arrayBuffer());
}

/** An ICO file (ICONDIR, one ICONDIRENTRY per image, then the images) holding PNG images. */
function ico(images) {
  const header = Buffer.alloc(6 + 16 * images.length);
  header.writeUInt16LE(0, 0); // reserved
  header.writeUInt16LE(1, 2); // 1: icon
  header.writeUInt16LE(images.length, 4);
  let offset = header.length;
  images.forEach(({ size, data }, i) => {
    const entry = 6 + 16 * i;
    header.writeUInt8(size >= 256 ? 0 : size, entry); // width
    header.writeUInt8(size >= 256 ? 0 : size, entry + 1); // height
    header.writeUInt8(0, entry + 2); // no palette
    header.writeUInt8(0, entry + 3); // reserved
    header.writeUInt16LE(1, entry + 4); // colour planes
    header.writeUInt16LE(32, entry + 6); // bits per pixel
    header.writeUInt32LE(data.length, entry + 8);
    header.writeUInt32LE(offset, entry + 12);
    offset += data.length;
  });
  return Buffer.concat([header, ...images.map((i) => i.data)]);
}

const images = [];
for (const size of sizes) images.push({ size, data: await png(size) });
fs.writeFileSync(path.join(root, 'app', 'favicon.ico'), ico(images));
console.log(`app/favicon.ico: ${sizes.join(', ')} px`);
