"""Bulk mode's stage on several cores: worker processes that turn blocks of a file's lines
into the rows the stage keeps (``kg.load.import_sink.stage_block``), in order.

Each worker is ``python -m kg.load.stage_workers``, a process of its own that reads a task
from its stdin and writes the answer to its stdout, each as a length-prefixed pickle. They
are started as programs, not forked or spawned by ``multiprocessing``: a fork would copy
DuckDB's threads mid-work, and a spawn imports the caller's main module again (a user's
script without a ``__main__`` guard would run twice). A thread per worker hands it one
block at a time and waits for its answer, so neither side ever blocks the other on a full
pipe.
"""

from __future__ import annotations

import collections
import contextlib
import functools
import os
import pickle
import queue
import signal
import subprocess
import sys
import traceback
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import IO, Any, cast

from kg.errors import StageWorkerFailed
from loaders.records import StagedBlock
from loaders.source_file import LineItems, NumberedLine

__all__ = ["StageWorkers", "main"]

# Blocks each worker may have waiting or in hand: enough that none waits for the next, few
# enough that memory stays flat.
_IN_FLIGHT = 3
_LENGTH = 8
# The folder the kg and loaders packages are in: the workers' working folder, so that
# ``-m`` finds these packages before anything of the same name in the caller's folder.
_PACKAGES = Path(__file__).resolve().parents[2]


class StageWorkers:
    """``count`` worker processes, started on first use; a ``BlockStage`` (``staged``).
    Close it to stop them."""

    def __init__(self, count: int) -> None:
        self.count = count
        self._workers: list[_Worker] = []
        self._idle: queue.SimpleQueue[_Worker] = queue.SimpleQueue()
        self._threads: ThreadPoolExecutor | None = None

    def staged(
        self, line_items: LineItems, path: str, snapshot: str, blocks: Iterator[list[NumberedLine]]
    ) -> Iterator[StagedBlock]:
        """Yield the StagedBlock of each block, in order, staged by the workers a few at a
        time. When ``blocks`` raises (the file broke off mid-way), the blocks read before
        it are still yielded, then its error is raised. Raises StageWorkerFailed when a
        worker stops without an answer."""
        threads = self._start()
        pending: collections.deque[Future[StagedBlock]] = collections.deque()
        try:
            while True:
                try:
                    block = next(blocks)
                except StopIteration:
                    break
                except Exception:
                    # what the file gave before the break still loads, as it does when the
                    # loader stages it alone
                    while pending:
                        yield pending.popleft().result()
                    raise
                pending.append(threads.submit(self._ask, (line_items, path, snapshot, block)))
                if len(pending) >= _IN_FLIGHT * self.count:
                    yield pending.popleft().result()
            while pending:
                yield pending.popleft().result()
        finally:
            # a block in a worker's hands is left to finish: its worker is idle again once
            # it answers (``_ask``), and ``close`` does not wait for it
            for future in pending:
                future.cancel()

    def close(self) -> None:
        """Stop the workers: each ends at the end of its stdin, or is killed when it does
        not within seconds (one stuck on a block); then the threads that talked to them."""
        for worker in self._workers:
            worker.stop()
        self._workers.clear()
        if self._threads is not None:
            self._threads.shutdown(cancel_futures=True)
        self._threads = None

    def _start(self) -> ThreadPoolExecutor:
        if self._threads is None:
            for _ in range(self.count):
                worker = _Worker.start()
                self._workers.append(worker)
                self._idle.put(worker)
            self._threads = ThreadPoolExecutor(self.count, thread_name_prefix="kg-stage")
        return self._threads

    def _ask(self, task: tuple[Any, ...]) -> StagedBlock:
        worker = self._idle.get()
        try:
            answer = worker.ask(task)
        finally:
            self._idle.put(worker)
        if isinstance(answer, BaseException):
            raise answer
        if not isinstance(answer, StagedBlock):  # pragma: no cover - a wiring mistake
            raise TypeError(f"a stage worker answered {type(answer).__name__}")
        return answer


class _Worker:
    """One worker process and its pipes."""

    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        self.process = process

    @classmethod
    def start(cls) -> _Worker:
        """Start a worker. Raises StageWorkerFailed when no process can be started."""
        command = [sys.executable or "python3", "-m", "kg.load.stage_workers"]
        try:
            process = subprocess.Popen(
                command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=_PACKAGES
            )
        except OSError as error:
            raise StageWorkerFailed(
                f"no worker process of the stage could be started ({error})",
                "stage in the loader's own process: --stage-workers 1 (stage_workers=1)",
            ) from None
        return cls(process)

    def ask(self, task: tuple[Any, ...]) -> object:
        """Send ``task``; return the worker's answer (a StagedBlock, or the exception it
        raised). Raises StageWorkerFailed when the worker stops without one."""
        stdin, stdout = self.process.stdin, self.process.stdout
        assert stdin is not None  # a pipe (start)
        assert stdout is not None
        try:
            _send(stdin, task)
            return _receive(stdout)
        except (OSError, EOFError) as error:
            code = self.process.poll()
            raise StageWorkerFailed(
                f"a worker process of the stage stopped without its answer "
                f"(exit code {code}, {error or 'end of its output'})",
                "run the load again; if the machine ran short of memory, give the stage "
                "fewer workers (--stage-workers 1 stages in the loader's own process)",
            ) from None

    def stop(self) -> None:
        stdin = self.process.stdin
        if stdin is not None:
            with contextlib.suppress(OSError):
                stdin.close()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        if self.process.stdout is not None:
            self.process.stdout.close()


def _send(stream: IO[bytes], value: object) -> None:
    data = pickle.dumps(value, pickle.HIGHEST_PROTOCOL)
    stream.write(len(data).to_bytes(_LENGTH, "little") + data)
    stream.flush()


def _receive(stream: IO[bytes]) -> object:
    """Read one length-prefixed pickle. Raises EOFError at the end of the stream, and what
    unpickling raises for one that cannot be read (the stream stays in step)."""
    return pickle.loads(_receive_bytes(stream))


def _receive_bytes(stream: IO[bytes]) -> bytes:
    """Read one length-prefixed message, whole. Raises EOFError at the end of the stream."""
    size = int.from_bytes(_read_exactly(stream, _LENGTH), "little")
    return _read_exactly(stream, size)


def _read_exactly(stream: IO[bytes], size: int) -> bytes:
    data = stream.read(size)
    if len(data) != size:
        raise EOFError("the stream ended")
    return data


def _answer(task: Callable[[], object]) -> object:
    """What a worker answers: ``task()``'s result, or the exception it raised, with the
    worker's traceback as a note; a RuntimeError saying what it was when that exception
    would not come back whole from a pickle."""
    try:
        return task()
    except Exception as exc:  # handed to the loader, which raises it
        exc.add_note("in a worker process of the stage:\n" + traceback.format_exc())
        try:
            pickle.loads(pickle.dumps(exc, pickle.HIGHEST_PROTOCOL))
        except Exception:
            failed = RuntimeError(f"{type(exc).__name__}: {exc}")
            failed.add_note("".join(getattr(exc, "__notes__", ())))
            return failed
        return exc


def main() -> None:
    """A worker: answer each task on stdin with ``stage_block``'s StagedBlock (or the
    exception it raised) on stdout, until stdin ends."""
    from kg.load.import_sink import stage_block

    # Ctrl-C reaches the whole process group: the loader handles it and closes the workers'
    # stdin, which ends them; a worker of its own would print a traceback mid-progress-bar
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    tasks = sys.stdin.buffer
    answers = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    # anything printed goes to stderr, never into the answers
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    while True:
        try:
            data = _receive_bytes(tasks)
        except EOFError:
            return
        _send(answers, _answer(functools.partial(_staged, stage_block, data)))


def _staged(stage_block: Callable[..., StagedBlock], data: bytes) -> StagedBlock:
    """``stage_block`` of a pickled task."""
    return stage_block(*cast(tuple[Any, ...], pickle.loads(data)))


if __name__ == "__main__":
    main()
