from games_py.meteors.cli import main

main()
