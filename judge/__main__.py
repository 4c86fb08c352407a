import sys

from judge.tools.cli import main

sys.exit(main())
