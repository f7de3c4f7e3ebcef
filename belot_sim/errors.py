"""Exceptions of belot_sim."""


class IllegalActionError(ValueError):
    """A card or call that is not legal in the current state; the message lists the legal ones."""
