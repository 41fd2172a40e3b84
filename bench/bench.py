#!/usr/bin/env python3
"""Entry point of the benchmark harness; bench/run.sh builds rinjobs and calls this."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness.main import main  # noqa: E402

if __name__ == "__main__":
    main(sys.argv[1:])
