"""The files that run inside the sandbox stand alone: stdlib only, loadable with nothing else."""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from pathlib import Path

from graders.code.sandbox.inside import server

INSIDE = Path(__file__).resolve().parents[3] / "graders" / "code" / "sandbox" / "inside"

# under -I -S no site-packages; sys.path is cut to the standard library before any file loads
LOADER = r"""
import importlib.util, json, os, sys
stdlib = os.path.dirname(os.__file__)
sys.path[:] = [p for p in sys.path if p.startswith(stdlib) and "site-packages" not in p]
before = set(sys.modules)
loaded = {}
for path in sorted(sys.argv[1:]):
    name = "_inside_" + os.path.basename(path)[:-3]
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    loaded[path] = sorted(m.split(".")[0] for m in set(sys.modules) - before)
print(json.dumps({"path": sys.path, "modules": sorted(set(m.split(".")[0] for m in sys.modules)),
                  "stdlib": sorted(sys.stdlib_module_names)}))
"""


def test_inside_files_load_under_isolated_python_with_only_the_stdlib() -> None:
    files = sorted(str(p) for p in INSIDE.glob("*.py") if p.name != "__init__.py")
    assert {Path(f).name for f in files} >= {"server.py", "harness.py", "confine.py", "root.py",
                                             "job.py", "reap.py", "guard.py", "tagged.py"}
    done = subprocess.run([sys.executable, "-I", "-S", "-c", LOADER, *files],
                          capture_output=True, text=True, cwd="/")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert all("site-packages" not in p for p in report["path"])
    foreign = [m for m in report["modules"]
               if m not in report["stdlib"] and not m.startswith("_inside_")
               and not m.startswith("_adjudicate_") and m != "__main__"]
    assert foreign == []


def test_host_code_never_runs_inside() -> None:
    # nothing in the folder imports the project: the fork server loads its siblings by path
    for path in INSIDE.glob("*.py"):
        text = path.read_text()
        assert "import graders" not in text and "from graders" not in text, path.name
        assert "import adjudicate" not in text and "from db" not in text, path.name


def test_the_kit_mypy_reads_is_the_kit_the_server_loads() -> None:
    # kit.py types KIT for mypy; the server loads server.SIBLINGS into it by path
    tree = ast.parse((INSIDE / "kit.py").read_text())
    typed = [alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.level
             for alias in node.names]
    assert sorted(typed) == sorted(server.SIBLINGS)
    # a sibling that calls others through KIT declares it, so load_kit gives it the namespace
    for path in INSIDE.glob("*.py"):
        text = path.read_text()
        if "KIT." in text and path.name not in ("server.py", "kit.py"):
            assert path.stem in server.SIBLINGS, path.name
            assert re.search(r"^    KIT = None\b", text, re.MULTILINE), path.name
