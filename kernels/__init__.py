"""Numba kernels: bitmask hands, dealing and whole-hand play-outs."""
