"""`--pin` (issue 55's decision, used by issue 74's figures): PostgreSQL's server and everything
it forks on one core, the bench and every job it starts on the other, so that a job and the
server never take turns for a core, as in production where the server has cores of its own.

The bench pins itself (its children inherit the mask) and starts each cluster's postmaster under
`taskset` (the postmaster's backends inherit its mask). Off unless asked for: a year or a fortnight
measured unpinned stays comparable with the figures before it."""

import os

JOB_CPU = 0
SERVER_CPU = 1

_pinned = False


def pin():
    """From here on: this process and its children on JOB_CPU, servers started on SERVER_CPU."""
    global _pinned
    if len(os.sched_getaffinity(0)) < 2:
        raise SystemExit("--pin needs two CPUs: one for the jobs, one for the server")
    os.sched_setaffinity(0, {JOB_CPU})
    _pinned = True


def server_prefix() -> list:
    """The argv prefix that starts a server on its own core (none when not pinned)."""
    return ["taskset", "-c", str(SERVER_CPU)] if _pinned else []


def described() -> str:
    if not _pinned:
        return "not pinned"
    return f"pinned: the jobs on CPU {JOB_CPU}, the PostgreSQL server on CPU {SERVER_CPU}"
