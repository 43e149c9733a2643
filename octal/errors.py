"""Exception classes: every error a user can cause has its own class and a one-line message."""

from __future__ import annotations


class OctalError(Exception):
    """Base class of every error raised on bad input or an impossible request."""

    def __str__(self) -> str:
        """One line, whatever a message quotes (a damaged file's text may hold line breaks)."""
        return " ".join(super().__str__().split("\n"))


class OctalCodeError(OctalError, ValueError):
    """A take-and-break code string that cannot be parsed; the message names the position."""

    def __init__(self, message: str, text: str | None = None, position: int | None = None):
        self.text = text
        self.position = position
        if position is not None and text is not None:
            message = f"{message} at position {position + 1} of {text!r}"
        elif text is not None:
            message = f"{message}: {text!r}"
        super().__init__(message)


class GameSyntaxError(OctalError, ValueError):
    """A short game typed in CGSuite's notation that cannot be read; the message names the column."""


class UnknownGameError(OctalError, LookupError):
    """A name that is neither an octal code nor a preset name or alias."""


class ResourceLimitError(OctalError):
    """A request that would not fit in memory or exceeds a stated budget."""


class InvalidArgumentError(OctalError, ValueError):
    """An argument out of its range (a heap count ≤ 0, a negative heap size, …)."""


class DataFileError(OctalError):
    """A file that cannot be written, read, or that holds something other than what was expected."""


class DamagedRowError(DataFileError):
    """A census row that fails its verification: `code` names it, `why` says what is wrong."""

    def __init__(self, code: str, why: str):
        self.code, self.why = code, why
        super().__init__(f"census row {code[:40]!r} is damaged: {why}; 'octal census --codes {code[:40]}' computes "
                         "it again")
