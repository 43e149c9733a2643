"""octal's version, written once: the package, `octal --version` and the wheel's metadata read it here."""

__version__ = "0.1.0"
