"""The sweep runner: the same results, in the same order, however the runs are spread."""
from __future__ import annotations

import importlib.util

import pytest

from pcemu.sweep import MachineRun, SweepError, run_machine, sweep

# three machines started on different days: each types DATE and keeps it, so each
# screen shows its own date (a result that tells the runs apart)
RUNS = [MachineRun(date=f"1988-0{month}-1{month}", keys="DATE{ENTER}{ENTER}", seconds=0.2)
        for month in (1, 2, 3)]


def test_local_sweep_over_two_processes_equals_running_one_by_one():
    one_by_one = [run_machine(run) for run in RUNS]
    spread = sweep(run_machine, RUNS, backend="local", workers=2)
    assert spread == one_by_one
    assert "01-11-1988" in spread[0]["screen"] and "03-13-1988" in spread[2]["screen"]
    assert len({r["state_hash"] for r in spread}) == 3


def test_auto_without_a_cluster_runs_on_the_local_cores():
    assert sweep(len, ["ab", "c", ""], backend="auto", workers=2) == [2, 1, 0]


def test_unknown_backend_is_a_clear_error():
    with pytest.raises(SweepError, match="unknown sweep backend 'spark'"):
        sweep(len, ["a"], backend="spark")


@pytest.mark.skipif(importlib.util.find_spec("ray") is not None, reason="Ray is installed here")
def test_ray_backend_without_ray_says_how_to_install_it():
    with pytest.raises(SweepError, match=r"pip install 'pcemu\[ray\]'"):
        sweep(len, ["a"], backend="ray")


@pytest.mark.skipif(importlib.util.find_spec("distributed") is None,
                    reason="dask.distributed is not installed (pip install 'pcemu[dask]')")
def test_dask_backend_on_a_local_cluster_gives_the_same_results():
    from distributed import Client, LocalCluster
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster:
        expected = [run_machine(run) for run in RUNS]
        assert sweep(run_machine, RUNS, backend="dask", address=cluster.scheduler_address) == expected
        with Client(cluster):
            assert sweep(run_machine, RUNS, backend="auto") == expected
