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


class DatasetWriteError(OSError):
    """Writing a dataset failed (a full disk, a file system gone, a rename refused): the message names
    the part or the manifest and says that ``resume=True`` completes the dataset.  Nothing of the part
    in progress was recorded and its temporary files were removed; ``errno`` is the failure's (or
    None) and the original error is the cause."""

    def __init__(self, message: str, *, errno: int | None = None):
        super().__init__(message)
        self.errno = errno

    def __reduce__(self):  # keeps errno across processes and Dask tasks
        return _write_error, (self.args[0], self.errno)


def _write_error(message: str, errno: int | None) -> DatasetWriteError:
    return DatasetWriteError(message, errno=errno)
