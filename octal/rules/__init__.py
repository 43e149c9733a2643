"""The rules: codes and their digits, families, presets, and the options of a heap."""
