// The support contact partners see on every docs page and in each spec's info.contact: from the docs config file
// (docs/docs.config.json by default), overridden by DOCS_SUPPORT_EMAIL / DOCS_SUPPORT_URL, e.g. in a release build.
import { readFileSync } from 'node:fs';
import { repoRoot } from '../../spec-core/apis.ts';

export interface SupportContact {
  name: string;
  email?: string;
  url?: string;
  /** What to include in a request for help, one or two sentences. */
  note?: string;
}

export const DEFAULT_DOCS_CONFIG = `${repoRoot}/docs/docs.config.json`;

const EMAIL = /^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/;

/** Reads and checks the support contact; a contact partners cannot reach (no email and no http(s) URL) is refused. */
export function readSupportContact(configFile = DEFAULT_DOCS_CONFIG, env: NodeJS.ProcessEnv = process.env): SupportContact {
  let config: { support?: Partial<SupportContact> };
  try {
    config = JSON.parse(readFileSync(configFile, 'utf8'));
  } catch (error) {
    throw new Error(`docs config ${configFile}: ${(error as Error).message}`);
  }
  const given = config.support ?? {};
  const contact: SupportContact = {
    name: String(given.name ?? '').trim(),
    ...(env.DOCS_SUPPORT_EMAIL || given.email ? { email: String(env.DOCS_SUPPORT_EMAIL || given.email).trim() } : {}),
    ...(env.DOCS_SUPPORT_URL || given.url ? { url: String(env.DOCS_SUPPORT_URL || given.url).trim() } : {}),
    ...(given.note ? { note: String(given.note).trim() } : {}),
  };
  const where = `docs config ${configFile}`;
  // A bad value is named where it came from: the environment wins over the file.
  const source = (variable: string, field: string) => (env[variable] ? variable : `${where}: support.${field}`);
  if (!contact.name) throw new Error(`${where}: support.name is missing`);
  if (!contact.email && !contact.url)
    throw new Error(`${where}: support needs an email or a url (or DOCS_SUPPORT_EMAIL / DOCS_SUPPORT_URL)`);
  if (contact.email && !EMAIL.test(contact.email))
    throw new Error(`${source('DOCS_SUPPORT_EMAIL', 'email')} "${contact.email}" is not an email address`);
  if (contact.url && !/^https?:\/\/[^\s/]+/.test(contact.url))
    throw new Error(`${source('DOCS_SUPPORT_URL', 'url')} "${contact.url}" is not an http(s) URL`);
  return contact;
}
