"""Where the C tools are: the package runs hipvis-analyze (hipvis.analyze)
and the hipvis launcher (python -m hipvis), never reimplements them.

Search order (docs/python.md, "Which hipvis-analyze"):
  1. the environment variable, when the tool has one (HIPVIS_ANALYZE);
  2. next to the package's install prefix: the nearest of the package's four
     parent directories with bin/TOOL (make install's PREFIX/share/hipvis/
     python/hipvis -> PREFIX/bin; a venv's or /usr's site-packages -> its bin);
  3. PATH;
  4. the checkout's build/: the one the package was built from (recorded by
     setup.py) or the one it sits in (python/hipvis).
"""
import os
import shutil

_PKG = os.path.dirname(os.path.abspath(__file__))


class ToolNotFound(FileNotFoundError):
    """No usable TOOL: the message says where it was looked for."""


def _executable(path):
    return bool(path) and os.path.isfile(path) and os.access(path, os.X_OK)


def _checkouts():
    out = []
    try:
        from hipvis._checkout import CHECKOUT  # written by setup.py into a built package
        out.append(CHECKOUT)
    except ImportError:
        pass
    parent = os.path.dirname(_PKG)
    if os.path.basename(parent) == "python" and os.path.isfile(os.path.join(os.path.dirname(parent), "Makefile")):
        out.append(os.path.dirname(parent))  # run from the source tree itself
    return out


def candidates(tool, env=None):
    """(where, path) in search order; env paths come first even when unusable,
    so that a wrong HIPVIS_ANALYZE is reported rather than silently skipped."""
    out = []
    if env and os.environ.get(env):
        out.append((env, os.environ[env]))
        return out
    d = _PKG
    for _ in range(4):
        d = os.path.dirname(d)
        out.append(("install prefix", os.path.join(d, "bin", tool)))
    found = shutil.which(tool)
    if found:
        out.append(("PATH", found))
    for c in _checkouts():
        out.append(("checkout", os.path.join(c, "build", tool)))
    return out


def find_tool(tool, env=None, beside=None):
    """The absolute path of TOOL. `env`: the variable that names it;
    `beside`: a directory tried first (the launcher beside a given analyzer)."""
    tried = []
    if beside:
        p = os.path.join(beside, tool)
        if _executable(p):
            return os.path.abspath(p)
        tried.append(p)
    for where, path in candidates(tool, env):
        if _executable(path):
            return os.path.abspath(path)
        if where == env:
            raise ToolNotFound(f"{env}={path} is not an executable file")
        tried.append(path)
    raise ToolNotFound(f"{tool} not found (looked at {', '.join(tried) or 'nothing'}; "
                       f"set {env or 'PATH'} or run make in the hipvis checkout)")


def analyzer():
    return find_tool("hipvis-analyze", env="HIPVIS_ANALYZE")


def launcher():
    """The hipvis launcher: beside HIPVIS_ANALYZE when that is set (they are
    installed together), else the same search as the analyzer's."""
    env = os.environ.get("HIPVIS_ANALYZE")
    return find_tool("hipvis", beside=os.path.dirname(env) if env else None)
