// Postman wants a UUID for each collection, environment and item: one derived from a text, so that the same specs and
// workflows give the same files.
import { createHash } from 'node:crypto';

export const stableId = (text: string): string => {
  const hex = createHash('sha256').update(text).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
};
