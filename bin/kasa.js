#!/usr/bin/env node
// `kasa` when installed as a command (npm link / npm i -g): runs the TypeScript entry through tsx,
// resolved from this package, not from the caller's folder.
import { register } from 'tsx/esm/api';

register();
await import('../src/main.ts');
