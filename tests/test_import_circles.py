"""No two modules of the source import each other, directly or around a circle.

A circle is a sign that one of its modules holds two things; it is broken by moving what both
sides need into a lower module, not by hiding an import inside a function. So every import
statement counts, wherever it stands in the file (functions, ``TYPE_CHECKING`` blocks).
``from P import n`` imports the module ``P.n`` when there is one (a ``.py`` file, a package or
a compiled extension), else ``P``; a package is its ``__init__.py``, a module like any other.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "drivers", "display", "firmware_host", "club", "lab")

Graph = dict[str, dict[str, list[int]]]
"""module -> imported module -> the lines of the statements importing it."""


def _modules(packages: Iterable[str] = PACKAGES) -> dict[str, Path]:
    """Every module of the packages that exist, by its dotted name: ``.py`` files and compiled
    extensions (``_dds.cpython-311-x86_64-linux-gnu.so`` is ``_dds``), built or declared."""
    found: dict[str, Path] = {}
    for package in packages:
        top = ROOT / package
        if not (top / "__init__.py").is_file():
            continue
        for path in sorted(top.rglob("*")):
            if "__pycache__" in path.parts or not path.is_file():
                continue
            if path.suffix == ".py":
                stem = path.stem
            elif path.suffix in (".so", ".pyd"):
                stem = path.name.split(".")[0]
            else:
                continue
            parts = list(path.relative_to(ROOT).parent.parts)
            if stem != "__init__":
                parts.append(stem)
            found.setdefault(".".join(parts), path)
    # a checkout without a compiler has no .so: the extensions setup.py builds are modules all
    # the same (solver.py's ``from engine.players import _dds`` never means the package)
    for name, source in _extensions().items():
        if name.split(".")[0] in packages:
            found.setdefault(name, source)
    return found


def _extensions() -> dict[str, Path]:
    """The C extensions setup.py declares: dotted name -> the C source."""
    setup = ROOT / "setup.py"
    if not setup.is_file():
        return {}
    found = {}
    for node in ast.walk(ast.parse(setup.read_text(encoding="utf-8"))):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id == "Extension" and len(node.args) == 2
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[1], ast.List) and node.args[1].elts
                and isinstance(node.args[1].elts[0], ast.Constant)):
            found[str(node.args[0].value)] = ROOT / str(node.args[1].elts[0].value)
    return found


def _package_of(name: str, path: Path) -> str:
    """The package a relative import in this module starts from."""
    return name if path.name == "__init__.py" else name.rpartition(".")[0]


def _known(name: str, modules: dict[str, Path]) -> str | None:
    """The module ``import name`` names: itself, or the nearest package above it that is one
    of ours (``engine.x.y`` with no such module gives ``engine.x`` or ``engine``)."""
    while name:
        if name in modules:
            return name
        name = name.rpartition(".")[0]
    return None


def _targets(name: str, path: Path, node: ast.Import | ast.ImportFrom,
             modules: dict[str, Path]) -> list[str]:
    if isinstance(node, ast.Import):
        found = [_known(a.name, modules) for a in node.names]
        return [t for t in found if t]
    base = node.module or ""
    if node.level:
        package = _package_of(name, path).split(".")
        package = package[: len(package) - node.level + 1]
        base = ".".join(p for p in [*package, base] if p)
    out = []
    for alias in node.names:
        sub = f"{base}.{alias.name}"
        target = sub if sub in modules else _known(base, modules)
        if target:
            out.append(target)
    return out


def import_graph(modules: dict[str, Path] | None = None) -> Graph:
    """Who imports whom among our modules (compiled ones import nothing we can read)."""
    modules = _modules() if modules is None else modules
    graph: Graph = {m: {} for m in modules}
    for name, path in modules.items():
        if path.suffix != ".py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import | ast.ImportFrom):
                for target in _targets(name, path, node, modules):
                    if target != name:
                        at = graph[name].setdefault(target, [])
                        if node.lineno not in at:
                            at.append(node.lineno)
    return graph


def circles(graph: Graph) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm,
    iterative: the graph is deeper than Python's recursion limit likes)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            for nxt in edges:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        m = stack.pop()
                        on_stack.discard(m)
                        component.append(m)
                        if m == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return sorted(found)


def describe(component: list[str], graph: Graph) -> str:
    """A circle with the edges that make it, each with the lines of its import statements."""
    members = set(component)
    lines = [f"circle of {len(component)} modules: {', '.join(component)}"]
    for m in component:
        for target, at in sorted(graph[m].items()):
            if target in members:
                lines.append(f"  {m} -> {target} (line {', '.join(map(str, sorted(at)))})")
    return "\n".join(lines)


def test_the_graph_sees_imports_everywhere_in_a_file(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("from pkg import a\n")
    (pkg / "a.py").write_text("def f():\n    from . import b\n    return b\n")
    (pkg / "b.py").write_text("from .sub import c, helper\n")
    (pkg / "sub" / "__init__.py").write_text("helper = 1\n")
    (pkg / "sub" / "c.py").write_text("import pkg.a\n")
    (pkg / "sub" / "_ext.cpython-311-x86_64-linux-gnu.so").write_bytes(b"")
    (pkg / "d.py").write_text("from pkg.sub import _ext\nfrom pkg.sub.c import nothing\n")
    modules = {}
    for path in sorted(pkg.rglob("*")):
        if path.is_file():
            rel = path.relative_to(tmp_path)
            stem = path.name.split(".")[0]
            parts = list(rel.parent.parts) + ([] if stem == "__init__" else [stem])
            modules[".".join(parts)] = path
    graph = import_graph(modules)
    assert graph["pkg"] == {"pkg.a": [1]}
    assert graph["pkg.a"] == {"pkg.b": [2]}  # inside a function, relative
    assert graph["pkg.b"] == {"pkg.sub.c": [1], "pkg.sub": [1]}  # a module, and a name
    assert graph["pkg.sub.c"] == {"pkg.a": [1]}
    assert graph["pkg.d"] == {"pkg.sub._ext": [1], "pkg.sub.c": [2]}
    assert circles(graph) == [["pkg.a", "pkg.b", "pkg.sub.c"]]
    assert "pkg.sub.c -> pkg.a (line 1)" in describe(circles(graph)[0], graph)


def test_no_import_circles() -> None:
    graph = import_graph()
    found = circles(graph)
    assert not found, "modules that import each other:\n" + "\n".join(
        describe(c, graph) for c in found)
