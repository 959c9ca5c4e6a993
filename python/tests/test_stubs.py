"""The type stubs (trisect/__init__.pyi) name exactly the module's public functions, classes
and members."""

import ast
import pathlib

import trisect

STUB = pathlib.Path(__file__).resolve().parents[1] / "trisect" / "__init__.pyi"


def public(names):
    return {name for name in names if not name.startswith("_")}


def test_stub_matches_module():
    tree = ast.parse(STUB.read_text())
    top = {node.name for node in tree.body if isinstance(node, (ast.FunctionDef, ast.ClassDef))}
    top |= {node.target.id for node in tree.body if isinstance(node, ast.AnnAssign)}
    assert top == set(trisect.__all__)
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            members = {item.name for item in node.body if isinstance(item, ast.FunctionDef)}
            assert public(members) == public(dir(getattr(trisect, node.name))), node.name
