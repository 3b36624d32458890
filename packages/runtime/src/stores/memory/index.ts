export { createMemoryStore, type MemoryStore, type MemoryStoreOptions } from './memory-store.js';
