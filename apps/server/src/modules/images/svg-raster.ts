import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ConvertTimeoutError } from './sharp-gate.js';

// Resolved when first needed: the web's tests load this module in jsdom, where import.meta.url
// is not a file URL, and never draw an SVG.
const workerPath = () => fileURLToPath(new URL('./svg-raster.worker.mjs', import.meta.url));
/** More PNG than a 2000×2000 raster can be is not a logo: the process is stopped. */
const MAX_OUTPUT_BYTES = 32 * 1024 * 1024;
/** The process's own JavaScript heap; the raster itself is native memory, bounded by limitInputPixels. */
const HEAP_MB = 64;

/**
 * Rasterises an uploaded SVG to PNG in a child process, killed (SIGKILL) at `timeoutMs`: librsvg
 * renders a tile at a time and sharp's own timeout only looks between tiles, so a crafted SVG (huge
 * blurs, filters on filters) could otherwise keep a core busy for minutes after its answer.
 */
export function rasteriseSvg(svg: Buffer, density: number, limitInputPixels: number, timeoutMs: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [`--max-old-space-size=${HEAP_MB}`, workerPath(), String(density), String(limitInputPixels)], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    let outBytes = 0;
    let err = '';
    let failure: Error | undefined;
    const stop = (error: Error) => {
      failure ??= error;
      child.kill('SIGKILL');
    };
    const timer = setTimeout(() => stop(new ConvertTimeoutError(`SVG rasterising took longer than ${timeoutMs} ms`)), timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => {
      outBytes += chunk.length;
      if (outBytes > MAX_OUTPUT_BYTES) stop(new Error('pixel limit: SVG raster too large'));
      else out.push(chunk);
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      if (err.length < 4096) err += chunk;
    });
    // The child may die before reading all of its input: that is its exit code's story, not ours.
    child.stdin.on('error', () => {});
    child.on('error', (error) => stop(error));
    child.on('close', (code) => {
      clearTimeout(timer);
      if (failure) reject(failure);
      else if (code === 0) resolve(Buffer.concat(out));
      else reject(new Error(err || `SVG rasteriser exited with ${code}`));
    });
    child.stdin.end(svg);
  });
}
