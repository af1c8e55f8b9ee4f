"""FileLock: an advisory, process-wide exclusive lock on a file (flock on POSIX, msvcrt's
byte lock on Windows), used to keep two processes from building into one directory at once.

    with FileLock("/path/build/lock"):
        ...                                 # one process at a time

acquire() never blocks: it answers whether the lock is now held by this object (False when
another holder, or this very object, has it); blocking_acquire() retries until it is held or
a timeout passes.
"""
from __future__ import annotations

import os
import sys
import time
from typing import Optional

__all__ = ["FileLock"]

if sys.platform.startswith("win32"):
    import msvcrt

    def _try_lock(fd: int) -> bool:
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True

    def _unlock(fd: int) -> None:
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
else:
    import fcntl

    def _try_lock(fd: int) -> bool:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except (BlockingIOError, PermissionError):
            return False
        return True

    def _unlock(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_UN)


class FileLock:
    """An exclusive lock on the file `lock_file_path` (created when missing; never deleted,
    since removing a lock file another process has open would let a third one lock a new
    file of the same name)."""

    def __init__(self, lock_file_path: str) -> None:
        self.lock_file_path = os.fspath(lock_file_path)
        self._file_descriptor: Optional[int] = None

    def acquire(self) -> bool:
        """Take the lock without waiting; True if this object holds it now."""
        if self._file_descriptor is not None:
            return False
        fd = os.open(self.lock_file_path, os.O_RDWR | os.O_CREAT, 0o644)
        if not _try_lock(fd):
            os.close(fd)
            return False
        self._file_descriptor = fd
        return True

    def blocking_acquire(self, timeout: Optional[float] = None,
                         poll_interval: float = 0.1) -> bool:
        """Wait for the lock; True once held.  TimeoutError after `timeout` seconds."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while not self.acquire():
            if self._file_descriptor is not None:
                raise RuntimeError(f"FileLock({self.lock_file_path!r}): already held by "
                                   "this object")
            if deadline is not None and time.monotonic() >= deadline:
                raise TimeoutError(f"FileLock({self.lock_file_path!r}): not acquired within "
                                   f"{timeout} s")
            time.sleep(poll_interval)
        return True

    def release(self) -> None:
        """Give the lock up (nothing to do if it is not held)."""
        fd, self._file_descriptor = self._file_descriptor, None
        if fd is None:
            return
        try:
            _unlock(fd)
        finally:
            os.close(fd)

    def __enter__(self) -> "FileLock":
        self.blocking_acquire()
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        self.release()

    def __del__(self) -> None:
        if getattr(self, "_file_descriptor", None) is not None:
            self.release()
