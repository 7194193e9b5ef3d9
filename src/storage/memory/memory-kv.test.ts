import { describeKVContract } from '../testing/kv.case.js';
import { createMemoryKV } from './memory-kv.js';

describeKVContract('memory', { create: async () => createMemoryKV() });
