"""Checks Python files against an older Python than the one running: the syntax of that version
(ast.parse with feature_version) and what runs at import or call time there — `X | Y` and
`list[int]` evaluated in annotations without `from __future__ import annotations`, and standard
library names newer than that version. Usage: python3 python_level_check.py 3.9 FILE... ;
prints one line per problem and exits 1 when there is any.
"""
import ast
import sys

# Names and attributes added after 3.7, with the version that added them.
NEWER_NAMES = {
    "Protocol": (3, 8), "Literal": (3, 8), "TypedDict": (3, 8), "Final": (3, 8), "runtime_checkable": (3, 8),
    "TypeAlias": (3, 10), "ParamSpec": (3, 10), "Concatenate": (3, 10), "TypeGuard": (3, 10),
    "Self": (3, 11), "Never": (3, 11), "LiteralString": (3, 11), "assert_never": (3, 11), "reveal_type": (3, 11),
    "override": (3, 12),
}
NEWER_ATTRIBUTES = {
    "removeprefix": (3, 9), "removesuffix": (3, 9), "to_thread": (3, 9), "lcm": (3, 9), "cache": (3, 9),
    "pairwise": (3, 10), "bit_count": (3, 10), "aiter": (3, 10), "anext": (3, 10),
    "UTC": (3, 11), "TaskGroup": (3, 11), "timeout": (3, 11), "file_digest": (3, 11), "StrEnum": (3, 11),
    "batched": (3, 12),
}
NEWER_MODULES = {"zoneinfo": (3, 9), "graphlib": (3, 9), "tomllib": (3, 11)}
NEWER_KEYWORDS = {("dataclass", "slots"): (3, 10), ("dataclass", "kw_only"): (3, 10), ("zip", "strict"): (3, 10)}
BUILTIN_GENERICS = {"list", "dict", "tuple", "set", "frozenset", "type"}


def version_text(version):
    return "%d.%d" % version


class Checker(ast.NodeVisitor):
    def __init__(self, minimum, lazy_annotations):
        self.minimum = minimum
        self.lazy = lazy_annotations
        self.problems = []
        self.in_annotation = False

    def need(self, node, version, what):
        if version > self.minimum:
            self.problems.append("line %d: %s needs Python %s" % (node.lineno, what, version_text(version)))

    def annotation(self, node):
        # Evaluated when the function or class is defined, unless annotations are lazy.
        if node is None or self.lazy:
            return
        previous, self.in_annotation = self.in_annotation, True
        self.visit(node)
        self.in_annotation = previous

    def visit_FunctionDef(self, node):
        for arg in node.args.posonlyargs + node.args.args + node.args.kwonlyargs + [node.args.vararg, node.args.kwarg]:
            if arg is not None:
                self.annotation(arg.annotation)
        self.annotation(node.returns)
        for child in node.decorator_list + node.args.defaults + [d for d in node.args.kw_defaults if d is not None] + node.body:
            self.visit(child)

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_AnnAssign(self, node):
        self.annotation(node.annotation)
        if node.value is not None:
            self.visit(node.value)

    def visit_BinOp(self, node):
        if isinstance(node.op, ast.BitOr) and self.in_annotation:
            self.need(node, (3, 10), "an X | Y type evaluated at run time")
        self.generic_visit(node)

    def visit_Call(self, node):
        name = node.func.id if isinstance(node.func, ast.Name) else node.func.attr if isinstance(node.func, ast.Attribute) else None
        if name in ("isinstance", "issubclass") and len(node.args) == 2 and isinstance(node.args[1], ast.BinOp):
            self.need(node, (3, 10), name + " with an X | Y type")
        for keyword in node.keywords:
            version = NEWER_KEYWORDS.get((name, keyword.arg))
            if version:
                self.need(node, version, "%s(%s=...)" % (name, keyword.arg))
        self.generic_visit(node)

    def visit_Subscript(self, node):
        # Lazy annotations are never visited, so whatever subscript is reached here is evaluated.
        if isinstance(node.value, ast.Name) and node.value.id in BUILTIN_GENERICS:
            self.need(node, (3, 9), node.value.id + "[...] evaluated at run time")
        self.generic_visit(node)

    def visit_Attribute(self, node):
        version = NEWER_ATTRIBUTES.get(node.attr)
        if version:
            self.need(node, version, "." + node.attr)
        self.generic_visit(node)

    def visit_ImportFrom(self, node):
        if node.module in NEWER_MODULES:
            self.need(node, NEWER_MODULES[node.module], "module " + node.module)
        for alias in node.names:
            version = NEWER_NAMES.get(alias.name) if node.module == "typing" else None
            if version:
                self.need(node, version, "typing." + alias.name)

    def visit_Import(self, node):
        for alias in node.names:
            version = NEWER_MODULES.get(alias.name.split(".")[0])
            if version:
                self.need(node, version, "module " + alias.name)


def check(path, minimum):
    with open(path, encoding="utf-8") as handle:
        source = handle.read()
    problems = []
    if minimum < sys.version_info[:2]:
        try:
            ast.parse(source, path, feature_version=minimum)
        except SyntaxError as error:
            problems.append("line %s: syntax of a newer Python than %s (%s)" % (error.lineno, version_text(minimum), error.msg))
    tree = ast.parse(source, path)
    lazy = any(isinstance(node, ast.ImportFrom) and node.module == "__future__" and any(a.name == "annotations" for a in node.names) for node in tree.body)
    checker = Checker(minimum, lazy)
    # Annotations are only visited through functions and AnnAssign; the rest of the tree as is.
    for node in tree.body:
        checker.visit(node)
    return problems + checker.problems


def main():
    minimum = tuple(int(part) for part in sys.argv[1].split("."))
    failed = False
    for path in sys.argv[2:]:
        for problem in check(path, minimum):
            failed = True
            print("%s: %s" % (path, problem))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
