import os
import sys

from games_py.teach_gin.cli import main

try:
    sys.exit(main())
except BrokenPipeError:         # e.g. `demo | head`: stop quietly
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    sys.exit(0)
