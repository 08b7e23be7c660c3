"""How the tests start their subprocesses (a light module: a child's starter imports only
this)."""

from __future__ import annotations

import os
import signal
from collections.abc import Callable


def limit_files(n: int) -> None:
    """Set this process's soft limit on open files to ``n`` (a common default is 1,024;
    the hard limit stays as it is)."""
    import resource

    resource.setrlimit(resource.RLIMIT_NOFILE, (n, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))


PR_SET_PDEATHSIG = 1  # linux/prctl.h


def child_setup(parent: int, max_files: int | None) -> Callable[[], None]:
    """What a server subprocess does between fork and exec: ask Linux to kill it when the
    test process that started it dies (a pytest timeout or a ``kill -9`` of the run kills
    the worker, which left its ``parlour serve`` running and holding its port and
    database), and lower its open-file limit if asked."""
    import ctypes

    def setup() -> None:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if os.getppid() != parent:  # the parent died before the request was made
            os._exit(1)
        if max_files is not None:
            limit_files(max_files)

    return setup
