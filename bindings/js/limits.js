// The sizes the wrapper and the module's link (bindings/CMakeLists.txt) must agree on, in one
// place: the loader makes the memory and the threads by them, and the argument checks and the
// heap copies refuse by them what the module could not hold.

// The module's memory, which the wrapper makes (shared, for the threads): 16 MiB at first (the
// link's INITIAL_MEMORY), growing up to 2 GiB (MAXIMUM_MEMORY, bindings/CMakeLists.txt).
export const PAGE_BYTES = 65536;
export const INITIAL_PAGES = 256;
export const MAXIMUM_PAGES = 32768;
// init()'s numThreads: each thread past the first is a Web Worker (a worker_threads Worker in
// Node.js) with a 2 MiB stack on the heap.
export const MAX_THREADS = 64;

export const ALIGN = 16;  // heap alignment of each tensor (complex128 needs 8)
// The heap's ceiling: -sMAXIMUM_MEMORY=2GB in bindings/CMakeLists.txt (wasm32 pointers are
// signed in JS). A call whose buffers add up to more is refused before anything is allocated.
export const MAX_HEAP_BYTES = 2 ** 31 - ALIGN * 4;
