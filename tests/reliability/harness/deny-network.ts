/**
 * A `node --import` preload for `etl` children: every JS-level socket, DNS, HTTP(S), TLS or UDP
 * attempt is recorded in $ETL_NETWORK_LOG and throws, so a run that touches the network fails loudly.
 */
import { appendFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';

const log = process.env.ETL_NETWORK_LOG;

function deny(api: string): never {
  if (log) appendFileSync(log, `${api}\n`);
  throw new Error(`network access attempted: ${api}`);
}

// biome-ignore lint/suspicious/noExplicitAny: patching arbitrary builtin members by name.
function patch(module: any, label: string, names: readonly string[]): void {
  for (const name of names) {
    if (typeof module[name] === 'function') module[name] = () => deny(`${label}.${name}`);
  }
}

const net = await import('node:net');
const dns = await import('node:dns');
const http = await import('node:http');
const https = await import('node:https');
const tls = await import('node:tls');
const dgram = await import('node:dgram');

patch(net.default, 'net', ['connect', 'createConnection', 'createServer']);
patch(net.default.Socket.prototype, 'net.Socket', ['connect']);
patch(net.default.Server.prototype, 'net.Server', ['listen']);
patch(dns.default, 'dns', ['lookup', 'lookupService', 'resolve', 'resolve4', 'resolve6', 'resolveAny']);
patch(dns.default.promises, 'dns.promises', ['lookup', 'lookupService', 'resolve', 'resolve4', 'resolve6']);
patch(http.default, 'http', ['request', 'get', 'createServer']);
patch(https.default, 'https', ['request', 'get', 'createServer']);
patch(tls.default, 'tls', ['connect', 'createServer']);
patch(dgram.default, 'dgram', ['createSocket']);
if (typeof globalThis.fetch === 'function') globalThis.fetch = () => deny('fetch');
syncBuiltinESMExports();
