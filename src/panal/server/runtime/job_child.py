"""A job process: runs the jobs its parent sends, one at a time, until its parent goes away.

Protocol on stdin/stdout: frames of a 4-byte big-endian length and a pickle. The parent sends
``(job_id, kind, payload)``; the child answers ``(job_id, True, result)`` or ``(job_id, False,
(error kind, message))`` (see :class:`panal.server.runtime.jobs.JobError`), after any number of
``(job_id, None, progress)`` frames (:func:`panal.server.runtime.jobs.report_progress`).
Anything the job prints goes to stderr, never into the frames. Pickles only travel between a
server and the children it started itself.

    python -m panal.server.runtime.job_child [module to import first ...]
"""

from __future__ import annotations

import contextlib
import functools
import os
import pickle
import struct
import sys

from panal.server.runtime.lifeline import die_with_parent

HEADER = struct.Struct(">I")


def main(argv: list[str]) -> int:
    parent = int(os.environ.get("PANAL_PARENT_PID", "0")) or os.getppid()
    die_with_parent(parent)
    frames_out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # print() in a job must not corrupt the frames
    frames_in = sys.stdin.buffer
    for module in argv:
        with contextlib.suppress(ImportError):
            __import__(module)  # warm up before the first job is timed
    from panal.server.runtime.jobs import JobInputError, progress_to, run_job

    def send(reply: tuple[str, bool | None, object]) -> None:
        data = pickle.dumps(reply, protocol=pickle.HIGHEST_PROTOCOL)
        frames_out.write(HEADER.pack(len(data)) + data)
        frames_out.flush()

    def send_progress(job_id: str, data: object) -> None:
        send((job_id, None, data))

    while True:
        header = frames_in.read(HEADER.size)
        if len(header) < HEADER.size:
            return 0  # the parent closed the pipe: stop
        (size,) = HEADER.unpack(header)
        job_id, kind, payload = pickle.loads(frames_in.read(size))
        reply: tuple[str, bool | None, object]
        try:
            with progress_to(functools.partial(send_progress, job_id)):
                reply = (job_id, True, run_job(kind, payload))
        except JobInputError as exc:
            reply = (job_id, False, ("bad_input", str(exc), exc.details))
        except Exception as exc:
            reply = (job_id, False, ("failed", f"{type(exc).__name__}: {exc}", None))
        send(reply)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
