"""Many independent runs at once: every local core, or a Ray or Dask cluster.

    from pcemu.sweep import sweep, MachineRun, run_machine
    runs = [MachineRun(disks=("B:1612",), time=f"12:00:{s:02d}", keys="GINRUMMY{ENTER}...")
            for s in range(60)]
    results = sweep(run_machine, runs)                 # local cores
    results = sweep(run_machine, runs, backend="dask", address="tcp://scheduler:8786")

Each run is a pure function of its inputs (the machine is deterministic), so a
sweep gives the same results, in the order of its inputs, whatever spreads it:
``local`` (a process pool over ``os.cpu_count()`` cores), ``ray`` (tasks on the
Ray cluster ``ray.init`` connected to, or one started here) or ``dask`` (a
``dask.distributed`` client at ``address``, or the current one).  ``auto``
takes a Ray or Dask cluster this process is already connected to, else the
local cores.  Ray and Dask are optional: installed with ``pip install
pcemu[ray]`` / ``pcemu[dask]``, imported only when asked for.
"""
from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Sequence

BACKENDS = ("auto", "local", "ray", "dask")


class SweepError(RuntimeError):
    """A backend was asked for but cannot be used here."""


@dataclass(frozen=True)
class MachineRun:
    """One run of the machine: what to boot, when, what to type, how long to go on."""
    disks: Sequence[str] = ()
    date: str | None = None
    time: str | None = None
    keys: str = ""
    seconds: float = 0.0                 # virtual seconds to run after the keys
    video: str = "cga"
    accelerate: bool = True
    host_dirs: dict[str, str] = field(default_factory=dict)


def run_machine(run: MachineRun) -> dict[str, Any]:
    """Boot, type, run; return what a sweep compares: the screen, state hash and virtual time."""
    from pcemu.clock import TICK_HZ
    from pcemu.machine import Machine
    m = Machine(disks=list(run.disks), date=run.date, time=run.time, video=run.video,
                accelerate=run.accelerate, host_dirs=dict(run.host_dirs) or None)
    if run.keys:
        m.type(run.keys)
    if run.seconds:
        m.run(run.seconds * TICK_HZ)
    return {"screen": m.screen_text(), "state_hash": m.state_hash(),
            "instructions": m.clock.now, "seconds": m.clock.seconds()}


OnResult = Callable[[int, Any], None]


def sweep(function: Callable[[Any], Any], items: Iterable[Any], *, backend: str = "auto",
          workers: int | None = None, address: str | None = None,
          on_result: OnResult | None = None) -> list[Any]:
    """``[function(item) for item in items]``, spread out; results in the order of ``items``.

    ``function`` must be importable by name (a module-level function) so other
    processes and machines can run it.  ``workers`` caps the local pool
    (default: every core); ``address`` is the Ray or Dask scheduler to use.
    ``on_result(index, result)`` hears of each result as it arrives (in order on
    the local cores, as they finish on a cluster), so a long sweep can keep or
    show its results before the last one is in.
    """
    if backend not in BACKENDS:
        raise SweepError(f"unknown sweep backend {backend!r}: choose one of {', '.join(BACKENDS)}")
    items = list(items)
    report = on_result or (lambda _index, _result: None)
    if backend == "auto":
        backend = _connected_cluster() or "local"
    if backend == "ray":
        return _sweep_ray(function, items, address, report)
    if backend == "dask":
        return _sweep_dask(function, items, address, report)
    return _sweep_local(function, items, workers, report)


def _sweep_local(function, items: list, workers: int | None, report: OnResult) -> list:
    workers = workers or os.cpu_count() or 1
    results: list = []
    if workers == 1 or len(items) <= 1:
        for item in items:
            results.append(function(item))
            report(len(results) - 1, results[-1])
        return results
    # each run is seconds of work: one item per task keeps all cores busy to the end.
    # Fresh interpreters (spawn), not forks: a fork would copy whatever state (Unicorn,
    # pygame, threads) the calling process holds.
    with ProcessPoolExecutor(max_workers=min(workers, len(items)),
                             mp_context=multiprocessing.get_context("spawn")) as pool:
        for result in pool.map(function, items):
            results.append(result)
            report(len(results) - 1, result)
    return results


def _connected_cluster() -> str | None:
    """'ray' or 'dask' when this process is already connected to such a cluster."""
    try:
        import ray
        if ray.is_initialized():
            return "ray"
    except ImportError:
        pass
    try:
        from distributed import default_client
        default_client()
        return "dask"
    except (ImportError, ValueError):
        pass
    return None


def _sweep_ray(function, items: list, address: str | None, report: OnResult) -> list:
    try:
        import ray
    except ImportError:
        raise SweepError("the ray backend needs Ray: pip install 'pcemu[ray]'") from None
    if not ray.is_initialized():
        ray.init(address=address)
    task = ray.remote(function)
    pending = {task.remote(item): i for i, item in enumerate(items)}
    results: list = [None] * len(items)
    while pending:
        done, _ = ray.wait(list(pending), num_returns=1)
        for ref in done:
            i = pending.pop(ref)
            results[i] = ray.get(ref)
            report(i, results[i])
    return results


def _sweep_dask(function, items: list, address: str | None, report: OnResult) -> list:
    try:
        from distributed import Client, default_client
    except ImportError:
        raise SweepError("the dask backend needs dask.distributed: pip install 'pcemu[dask]'") from None
    if address is not None:
        with Client(address) as client:
            return _gather_dask(client, function, items, report)
    try:
        client = default_client()
    except ValueError:
        raise SweepError("the dask backend needs a scheduler: give its address, or create "
                         "a distributed.Client first") from None
    return _gather_dask(client, function, items, report)


def _gather_dask(client, function, items: list, report: OnResult) -> list:
    from distributed import as_completed
    futures = client.map(function, items, pure=False)
    index = {future.key: i for i, future in enumerate(futures)}
    results: list = [None] * len(items)
    for future, result in as_completed(futures, with_results=True):
        i = index[future.key]
        results[i] = result
        report(i, result)
    return results
