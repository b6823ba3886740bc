#!/usr/bin/env python3
"""expect_exit.py N CMD ARGS...: run CMD, pass its output through, and exit 0
only if CMD exited with status N (lit's `not` only knows zero/non-zero).
A crash (death by signal) never matches."""
import subprocess
import sys

want = int(sys.argv[1])
r = subprocess.run(sys.argv[2:])
if r.returncode != want:
    print(f"expect_exit: {sys.argv[2]} exited with {r.returncode}, expected {want}", file=sys.stderr)
    sys.exit(1)
