// The page of the WebGPU suites in Chromium: the harness (harness.js) on navigator.gpu and the
// package's dist/ as the page serves it. window.harness resolves once the device is there (or to
// the reason there is none).
import * as webgpu from '/gridsample/webgpu.js';

import { startHarness } from './harness.js';

window.harness = startHarness(navigator.gpu, webgpu,
                              async () => (await import('/ort-common/index.js')).Tensor).catch(
    (error) => ({ error: `${error.constructor.name}: ${error.message}` }));
