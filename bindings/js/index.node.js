// gridsample for Node.js (ES module): the CommonJS entry's instance, so that `import` and
// `require` in one process share one module, one heap, one init() and one set of threads.
import gridsample from './index.cjs';

export const { init, gridSample, affineGrid, numThreads, backend, version } = gridsample;
