"""The exact double-dummy solver (``docs/solver.md``).  Kernels call :mod:`.api`; importing it
compiles (or loads from the cache) the recursive search, which plain simulations never need."""
