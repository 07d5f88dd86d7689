export * from './index.js';
export { canConnect } from './reachability.js';
