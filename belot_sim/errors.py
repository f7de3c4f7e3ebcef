"""Exceptions of belot_sim."""


class IllegalActionError(ValueError):
    """A card or call that is not legal in the current state; the message lists the legal ones."""


class DatasetMismatchError(ValueError):
    """A dataset folder holds deals made with other arguments than this call's, so ``resume=True``
    may not complete it. ``path`` is the folder, ``reason`` says what differs (no advice), and the
    message adds what to do."""

    def __init__(self, path: str, reason: str, advice: str):
        super().__init__(f"{path} {reason}: {advice}")
        self.path, self.reason, self.advice = path, reason, advice

    def __reduce__(self):  # rebuilt from its three parts (pickled across processes and Dask tasks)
        return type(self), (self.path, self.reason, self.advice)
