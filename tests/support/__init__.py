"""What the tests share that is not a test: the sandbox attacks, the fuzz inputs, the
query rewrites of the property tests (benchmarks import the first two as well)."""
