export type { KasaEvent, KasaEventsOptions } from './event-stream.js';
export * from './generated/api.js';
export {
  type CallOptions,
  type JsonOperation,
  KasaClient,
  type KasaClientOptions,
  type ParamsOf,
  type RequestOf,
  type ResponseOf,
} from './kasa-client.js';
export { KasaError } from './kasa-error.js';
