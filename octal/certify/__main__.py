"""`python -m octal.certify FILE`."""

import sys

from .cli import main

sys.exit(main())
