"""The sweep runner: the same results, in the same order, however the runs are spread."""
from __future__ import annotations

import importlib.util

import pytest

from pcemu.sweep import MachineRun, SweepError, run_machine, sweep
from tests.machine_helpers import needs_originals

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


@pytest.mark.parametrize("workers", [1, 2])
def test_each_result_is_reported_as_it_comes_with_its_index(workers):
    heard = []
    results = sweep(len, ["abc", "", "de", "f"], backend="local", workers=workers,
                    on_result=lambda i, r: heard.append((i, r)))
    assert results == [3, 0, 2, 1]
    assert heard == list(enumerate(results))          # the local pool reports in order


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
        heard = {}
        assert sweep(run_machine, RUNS, backend="dask", address=cluster.scheduler_address,
                     on_result=heard.__setitem__) == expected
        assert heard == dict(enumerate(expected))       # every result, under its own index
        with Client(cluster):
            assert sweep(run_machine, RUNS, backend="auto") == expected


@needs_originals
@pytest.mark.skipif(importlib.util.find_spec("distributed") is None,
                    reason="dask.distributed is not installed (pip install 'pcemu[dask]')")
def test_the_gin_rummy_sweep_runs_on_a_dask_cluster(tmp_path):
    """``pcemu trace ginrummy-sweep --backend dask --address ...``: the same results as
    on the local cores, each line written as it comes."""
    import json
    from click.testing import CliRunner
    from distributed import LocalCluster
    from games_py.ginrummy.original_sweep import sweep_command as ginrummy_sweep
    lines = {}
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster:
        for backend in ("dask", "local"):
            out = tmp_path / f"{backend}.jsonl"
            args = ["--count", "3", "--jobs", "2", "--backend", backend, "-o", str(out)]
            if backend == "dask":
                args += ["--address", cluster.scheduler_address]
            result = CliRunner().invoke(ginrummy_sweep, args)
            assert result.exit_code == 0, result.output
            assert "3 of 3 first deals equal" in result.output
            lines[backend] = sorted(json.loads(line)["time"] for line in out.read_text().splitlines())
    assert len(lines["dask"]) == 3 and lines["dask"] == lines["local"]
