"""The project's own exceptions: errors a user can cause, with the file and place they concern."""

from __future__ import annotations


class AnalyzerError(Exception):
    """Base of every error the user can cause (bad input, bad option)."""


class InputError(AnalyzerError):
    """An input could not be read at all (missing path, unreadable archive, nothing found)."""

    def __init__(self, source: str, reason: str) -> None:
        super().__init__(f"{source}: {reason}")
        self.source = source
        self.reason = reason


class MissingInputError(InputError, FileNotFoundError):
    """A path handed to analyzer.load names nothing (a FileNotFoundError too, as open() raises)."""


class UnknownObjectError(AnalyzerError, KeyError):
    """A query named an object that is not in the dump."""

    def __str__(self) -> str:  # KeyError would repr() the message
        return str(self.args[0]) if self.args else ""
