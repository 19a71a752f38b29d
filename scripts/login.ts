// `npm run login`: the authorization code flow for a developer (tools/login.ts). Prints (or opens with --open) the
// authorize URL, waits on the loopback LP_REDIRECT_URI, and prints the token lifetime; the token itself only with
// --show-token.
import { spawn } from 'node:child_process';
import { parseCommandLine, usageError } from '../config/cli.ts';
import { type LpVariable, readVariable } from '../config/environment.ts';
import { loopbackRedirect, signIn } from '../tools/login.ts';

const CLI = {
  command: 'npm run login --',
  summary: "Signs you in with the authorization code flow (PKCE) in a browser and prints the token's lifetime.",
  options: {
    open: { type: 'boolean', description: 'Open the authorize URL in the system browser.' },
    'show-token': { type: 'boolean', description: 'Also print the access token.' },
    timeout: { type: 'string', value: 'SECONDS', description: 'How long to wait for the browser.', default: '300' },
  },
  notes: [
    'Needs LP_AUTH_URL, LP_CLIENT_ID, LP_CLIENT_SECRET, LP_SUBSCRIPTION_KEY, LP_SCOPE and LP_REDIRECT_URI',
    '(a loopback address registered for the application, e.g. http://127.0.0.1:8765/callback).',
  ],
} as const;

const { values: flags } = parseCommandLine(CLI);

function setting(name: LpVariable): string {
  const value = readVariable(name);
  if (!value) usageError(CLI, `${name} is not set (see --help).`);
  return value;
}

const settings = {
  authUrl: setting('LP_AUTH_URL'),
  clientId: setting('LP_CLIENT_ID'),
  clientSecret: setting('LP_CLIENT_SECRET'),
  subscriptionKey: setting('LP_SUBSCRIPTION_KEY'),
  scope: setting('LP_SCOPE'),
  redirectUri: setting('LP_REDIRECT_URI'),
};
const redirect = loopbackRedirect(settings.redirectUri);
if (!redirect) usageError(CLI, 'LP_REDIRECT_URI must be a loopback http address with a port, e.g. http://127.0.0.1:8765/callback');
const timeoutSeconds = Number(flags.timeout);
if (!Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0)
  usageError(CLI, `--timeout must be a positive number of seconds, got "${flags.timeout}"`);

const result = await signIn(settings, {
  timeoutSeconds,
  listening: (url) => {
    console.log(`Open this URL in a browser to sign in (waiting ${timeoutSeconds} s on ${redirect.origin}):\n${url}`);
    if (flags.open) openInBrowser(url);
  },
  notice: (line) => console.error(`login: ${line}`),
});
if ('error' in result) {
  console.error(result.exchange ? `login: the code exchange failed: ${result.error.message}` : `login: ${result.error.message}`);
  process.exit(1);
}
const { token } = result;
console.log(
  `Signed in: ${token.token_type} token, expires in ${token.expires_in ?? 'an unstated number of'} s${token.scope ? `, scope "${token.scope}"` : ''}.`,
);
if (flags['show-token']) console.log(`access_token: ${token.access_token}`);
else console.log('The token is not printed; pass --show-token to print it.');

function openInBrowser(url: string): void {
  const command = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  const child = spawn(command, [url], { stdio: 'ignore', detached: true });
  child.on('error', () => console.log(`(could not run ${command}; open the URL by hand)`));
  child.unref();
}
