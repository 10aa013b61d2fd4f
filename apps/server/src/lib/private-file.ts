import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Files that hold personal data (backups, restored and new SQLite stores, a person's export) are
 * readable by their owner only from the moment they exist: mode 0600 at creation, never a chmod after
 * the data is in (docs/decisions/024-backups-and-personal-data.md). The umask can only narrow it.
 */
export const PRIVATE_FILE_MODE = 0o600;

/** Creates `file` empty with mode 0600; refuses (EEXIST) a file that is already there. */
export function createPrivateFile(file: string): void {
  fs.closeSync(fs.openSync(file, 'wx', PRIVATE_FILE_MODE));
}

/** Opens `file`, creating it empty with mode 0600 when missing; an existing file is left as it is. */
export function ensurePrivateFile(file: string): void {
  fs.closeSync(fs.openSync(file, 'a', PRIVATE_FILE_MODE));
}

/** A temporary name in the same directory, so the final rename is atomic and never crosses a file system. */
export const temporaryNextTo = (file: string, purpose: string): string =>
  path.join(path.dirname(file), `.${path.basename(file)}.${purpose}-${randomBytes(4).toString('hex')}`);

/**
 * Writes `data` to `file` as a new 0600 file renamed into place: a file already there, whatever its
 * mode, is replaced by it rather than written through (its wider mode would stay).
 */
export function writePrivateFile(file: string, data: string): void {
  const temporary = temporaryNextTo(file, 'write');
  const fd = fs.openSync(temporary, 'wx', PRIVATE_FILE_MODE);
  try {
    try {
      fs.writeFileSync(fd, data);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temporary, file);
  } catch (error) {
    fs.rmSync(temporary, { force: true });
    throw error;
  }
}
