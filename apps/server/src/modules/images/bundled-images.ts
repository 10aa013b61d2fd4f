import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { imageTypes, isImageExt } from './image-formats.js';

/** Images shipped with the server (demo venues, placeholder): apps/server/assets/images. */
export const bundledImagesDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../assets/images');

// Plain names only: no empty, hidden, `.` or `..` segment, no backslash, no encoded tricks.
const SAFE_PATH = /^[A-Za-z0-9][A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]+)*(?:\/[A-Za-z0-9][A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]+)*)*$/;

export interface BundledFile {
  file: string;
  contentType: string;
  /** Changes when the file changes; part of the cache key. */
  version: string;
}

/**
 * Finds a bundled image by its path under the image host, or undefined. Refuses anything that could
 * leave the directory: unsafe names, and symbolic links that point outside it.
 */
export async function findBundledImage(relative: string, root = bundledImagesDir): Promise<BundledFile | undefined> {
  if (relative.length > 200 || !SAFE_PATH.test(relative)) return undefined;
  const ext = path.extname(relative).slice(1).toLowerCase();
  if (!isImageExt(ext)) return undefined;
  const file = path.resolve(root, relative);
  if (!file.startsWith(root + path.sep)) return undefined;
  try {
    const [real, realRoot] = await Promise.all([fs.realpath(file), fs.realpath(root)]);
    if (!real.startsWith(realRoot + path.sep)) return undefined;
    const stat = await fs.stat(real);
    if (!stat.isFile()) return undefined;
    return { file: real, contentType: imageTypes[ext].contentType, version: `${stat.mtimeMs}:${stat.size}` };
  } catch {
    return undefined; // no such file
  }
}

export function readBundledImage(found: BundledFile): Promise<Buffer> {
  return fs.readFile(found.file);
}
