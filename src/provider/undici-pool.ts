/**
 * undici's Pool and its request API, without undici's index: the index loads all of undici (fetch, WebSocket,
 * cookies, caches, mocks), about 60 ms of CPU at the start of every command that talks to the provider, for a
 * client that needs only a connection pool. The index does one thing besides exporting: it mixes the request API
 * into Dispatcher's prototype, which is done here the same way.
 */
import type { Pool as UndiciPool } from 'undici';
import api from 'undici/lib/api/index.js';
import Dispatcher from 'undici/lib/dispatcher/dispatcher.js';
import PoolImpl from 'undici/lib/dispatcher/pool.js';

if (!('request' in Dispatcher.prototype)) Object.assign(Dispatcher.prototype, api);

export const Pool: typeof UndiciPool = PoolImpl;
export type Pool = UndiciPool;
