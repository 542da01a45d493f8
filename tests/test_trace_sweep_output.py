"""The sweep commands of both games' tracers: an output file that cannot be written is one
line and a non-zero status before anything runs, never a traceback."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from games_py.ginrummy.original_sweep import sweep_command as ginrummy_sweep
from games_py.meteors.cli import sweep_command as meteors_sweep


@pytest.mark.parametrize("command", [ginrummy_sweep, meteors_sweep], ids=["ginrummy", "meteors"])
def test_an_unwritable_output_is_one_line(tmp_path, command):
    output = tmp_path / "no such folder" / "out.jsonl"
    result = CliRunner().invoke(command, ["--count", "1", "-o", str(output)])
    assert result.exit_code == 1
    assert result.output.strip().splitlines() == [f"Error: cannot write {output}: No such file or directory"]
    assert result.exception is None or isinstance(result.exception, SystemExit)
