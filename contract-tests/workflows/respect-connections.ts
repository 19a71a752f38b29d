// Loaded into each Redocly Respect process before the CLI (`node --import`): every request Respect sends goes over the
// kit's connections (src/connections.ts), as the suite's and the client's do: HTTPS_PROXY, HTTP_PROXY and NO_PROXY
// read as they read them, loopback always direct, CONNECT tunnels. Respect's own proxy support differs: it takes
// HTTPS_PROXY for http targets too, has no loopback rule, and binds a proxy dispatcher to the origin a step starts at,
// so the redirect it follows to the loopback LP_REDIRECT_URI would be sent to the proxy. With the variables out of its
// sight it adds no dispatcher of its own, and its fetch takes the global one, set here (undici keeps it under a
// global symbol that every copy of undici reads, the one bundled in the Redocly CLI included).
import { setGlobalDispatcher } from 'undici';
import { connections, proxySettings } from '../../src/connections.ts';

/** The proxy variables, in both spellings: read here, then hidden from Respect. */
const PROXY_VARIABLES = ['HTTPS_PROXY', 'HTTP_PROXY', 'NO_PROXY'].flatMap((name) => [name, name.toLowerCase()]);

const settings = proxySettings();
// Emptied rather than deleted: Respect loads a .env file it finds, which fills in only the variables not set at all.
for (const name of PROXY_VARIABLES) process.env[name] = '';
setGlobalDispatcher(connections({}, settings).pooled as Parameters<typeof setGlobalDispatcher>[0]);
