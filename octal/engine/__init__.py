"""The normal-play engine: kernels, the sequence driver, periodicity, the rare split, checkpoints."""
