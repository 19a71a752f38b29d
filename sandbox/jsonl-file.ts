// Reads a JSON-lines file in fixed-size chunks (never whole, so its size is limited only by what
// the caller keeps of it) and sets aside a torn last line: bytes after the last newline are
// what a crash in the middle of an append leaves, and were never acknowledged.
import { closeSync, fstatSync, ftruncateSync, openSync, readSync, writeFileSync } from 'node:fs';

const CHUNK_BYTES = 1024 * 1024;

export type JsonlReadResult = {
  lines: number;
  /** Where the torn tail was moved to, and how many bytes it had; undefined when the file ended cleanly. */
  tornTail?: { savedTo: string; bytes: number };
};

/**
 * Calls onLine for each complete line (without its newline; blank lines skipped) with its
 * 1-based number. A line longer than maxLineBytes is an error. The torn tail, if any, is
 * copied to `<file>.torn-<time>` and cut from the file, so appends continue after a whole line.
 */
export function readJsonlFile(file: string, maxLineBytes: number, onLine: (line: string, lineNumber: number) => void): JsonlReadResult {
  const fd = openSync(file, 'r+');
  try {
    // Read up to the size at open: we hold the data-file lock, so nothing appends meanwhile.
    const size = fstatSync(fd).size;
    const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
    let carry = Buffer.alloc(0);
    let position = 0;
    let lineNumber = 0;
    while (position < size) {
      const read = readSync(fd, chunk, 0, Math.min(CHUNK_BYTES, size - position), position);
      if (read === 0) break;
      position += read;
      let data = carry.length > 0 ? Buffer.concat([carry, chunk.subarray(0, read)]) : chunk.subarray(0, read);
      let start = 0;
      for (let newline = data.indexOf(10, start); newline !== -1; newline = data.indexOf(10, start)) {
        lineNumber += 1;
        if (newline - start > maxLineBytes) throw new Error(`line ${lineNumber} is longer than ${maxLineBytes} bytes`);
        const line = data.toString('utf8', start, newline);
        if (line.trim() !== '') onLine(line, lineNumber);
        start = newline + 1;
      }
      if (data.length - start > maxLineBytes) throw new Error(`line ${lineNumber + 1} is longer than ${maxLineBytes} bytes`);
      // Copy: `chunk` is reused by the next read.
      data = data.subarray(start);
      carry = Buffer.from(data);
    }
    if (carry.length === 0) return { lines: lineNumber };
    const savedTo = `${file}.torn-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    writeFileSync(savedTo, carry, { mode: 0o600 });
    ftruncateSync(fd, position - carry.length);
    return { lines: lineNumber, tornTail: { savedTo, bytes: carry.length } };
  } finally {
    closeSync(fd);
  }
}
