"""Positions of several heaps: values, outcomes, winning moves."""
