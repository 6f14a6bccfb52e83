import sys

from bench.support.runner import main

sys.exit(main())
