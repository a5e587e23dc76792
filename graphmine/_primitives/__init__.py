"""Kernel primitives every family and back-end may use: sorted-set operations (setops), CSR
building (csr_kernels), vertex orders (order_kernels), hashing and sketches (sketch_kernels,
estimators), small-work numpy paths (small_work) and ranking metrics (metrics). Private."""
