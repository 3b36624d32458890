import { runStoreConformance } from '../../src/testing/index.js';
import { createMemoryStore } from '../../src/stores/memory/index.js';

runStoreConformance({ name: 'memory', createStore: () => createMemoryStore() });
