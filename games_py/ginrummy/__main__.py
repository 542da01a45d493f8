from games_py.ginrummy.cli import main

main(prog_name="python -m games_py.ginrummy")
