"""python -m hipvis COMMAND [ARGS...]: the hipvis launcher, from Python.

    python -m hipvis run -- python serve.py      # run it traced (hipvis run)
    python -m hipvis report trace.zst            # any other launcher command too

The process becomes the launcher (exec), so the exit status is the
command's. The launcher is found as hipvis.analyze finds hipvis-analyze
(docs/python.md, "Which hipvis-analyze"), beside HIPVIS_ANALYZE first.
"""
import os
import sys

from hipvis import _tools
from hipvis._version import __version__

USAGE = """usage: python -m hipvis COMMAND [ARGS...]
  forwards to the hipvis launcher, e.g.
  python -m hipvis run [-o DIR] [--sidecar] [--] CMD [ARGS...]   run CMD traced
  python -m hipvis --help                                         the launcher's commands
  python -m hipvis --version                                      this package's version
"""


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    if not argv:
        sys.stderr.write(USAGE)
        return 2
    if argv == ["--version"]:
        print(f"hipvis (Python package) {__version__}")
        return 0
    try:
        launcher = _tools.launcher()
    except _tools.ToolNotFound as e:
        if argv[0] in ("-h", "--help"):
            sys.stdout.write(USAGE)
            return 0
        sys.stderr.write(f"python -m hipvis: {e}\n")
        return 127
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(launcher, [launcher] + argv)
    return 127  # not reached


if __name__ == "__main__":
    sys.exit(main())
