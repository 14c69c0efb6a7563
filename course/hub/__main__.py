"""`python -m course.hub` (lo que lanza `make hub`): prepara y arranca el JupyterHub del curso."""

import sys

from . import main

sys.exit(main())
