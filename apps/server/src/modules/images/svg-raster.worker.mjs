// Rasterises one SVG to PNG in its own process (see svg-raster.ts): the server can kill it at its
// deadline, which a render inside the server's own process does not allow (docs/security.md).
// Input: the SVG on stdin. Arguments: density, the pixel limit. Output: the PNG on stdout.
import { Buffer } from 'node:buffer';
import process from 'node:process';
import sharp from 'sharp';

const [density, limitInputPixels] = process.argv.slice(2).map(Number);
const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
try {
  sharp.concurrency(1);
  const png = await sharp(Buffer.concat(chunks), { density, limitInputPixels }).png({ compressionLevel: 9 }).toBuffer();
  process.stdout.write(png, () => process.exit(0));
} catch (error) {
  process.stderr.write(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
