"""An operation counter for emitted text, written for the tests only.

It shares no code with the library: it reads what a user receives (C,
Python, NumPy, Fortran source, FORM's ``%O`` output, the SymPy
``(replacements, exprs)`` of ``result.assignments()`` / ``hornermcts.cse``)
and counts operations in FORM's model:

* a binary ``+`` or ``-`` is one addition; a unary sign is free;
* a binary ``*`` or ``/`` is one multiplication;
* ``a**n`` (``a^n`` in FORM, ``pow(a, n)`` in C) with a literal integer
  ``n >= 1`` costs the multiplications of repeated squaring,
  ``floor(log2 n) + popcount(n) - 1``;
* an operation between literals only (``1.0L/3.0L``) is folded by the
  compiler and free; a function call is free, its arguments are counted;
* compensated (double-double) code: each call of a TwoSum-based runtime
  function (``dd_two_sum``, ``dd_add``, ``dd_add_d``) is one addition, each
  TwoProd-based one (``dd_two_prod``, ``dd_mul``, ``dd_mul_d``) one
  multiplication, and a division (``dd_div``) one multiplication: the plain
  program it compensates.

Every text is brought to Python syntax and read with :mod:`ast`; only the
statements that evaluate the expression are read (not a batch loop's index
arithmetic, not the double-double runtime's own definitions).
"""
from __future__ import annotations

import ast
import re
from collections import Counter

ADD_CALLS = {"dd_two_sum", "dd_add", "dd_add_d"}
MUL_CALLS = {"dd_two_prod", "dd_mul", "dd_mul_d", "dd_div"}


def squaring_cost(n: int) -> int:
    """Multiplications of ``a**n`` by repeated squaring."""
    if n <= 1:
        return 0
    return n.bit_length() - 1 + bin(n).count("1") - 1


def _literal_value(node: ast.AST):
    """The number a literal (possibly signed, possibly parenthesised) stands for, else None."""
    sign = 1
    while isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        sign = -sign if isinstance(node.op, ast.USub) else sign
        node = node.operand
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
        return sign * node.value
    return None


def _is_literal(node: ast.AST) -> bool:
    return not any(isinstance(n, (ast.Name, ast.Attribute, ast.Call, ast.Subscript)) for n in ast.walk(node))


def count_ast(node: ast.AST, tally: Counter | None = None) -> Counter:
    """``Counter(additions=, multiplications=)`` of one Python expression tree."""
    tally = Counter() if tally is None else tally
    if isinstance(node, ast.BinOp):
        if _is_literal(node):
            return tally
        if isinstance(node.op, (ast.Add, ast.Sub)):
            tally["additions"] += 1
        elif isinstance(node.op, (ast.Mult, ast.Div)):
            tally["multiplications"] += 1
        elif isinstance(node.op, ast.Pow):
            n = _literal_value(node.right)
            if n is not None and n == int(n) and n != 0:
                # a**n by squaring; a**-n one division more (1/a**n)
                tally["multiplications"] += squaring_cost(abs(int(n))) + (n < 0)
            # any other exponent is a call such as pow(a, 0.5): free
            return count_ast(node.left, tally)
        else:
            raise ValueError(f"unexpected operator {type(node.op).__name__} in {ast.unparse(node)}")
        count_ast(node.left, tally)
        count_ast(node.right, tally)
        return tally
    if isinstance(node, ast.Call):
        name = node.func.id if isinstance(node.func, ast.Name) else None
        if name in ADD_CALLS:
            tally["additions"] += 1
        elif name in MUL_CALLS:
            tally["multiplications"] += 1
        elif name == "pow" and len(node.args) == 2:  # C's spelling of a**n: counted as a**n is
            n = _literal_value(node.args[1])
            if n is not None and n == int(n) and n != 0:
                tally["multiplications"] += squaring_cost(abs(int(n))) + (n < 0)
        if isinstance(node.func, ast.Attribute):  # numpy.sin(a), f(...).astype(...)
            count_ast(node.func.value, tally)
        for arg in node.args:
            count_ast(arg, tally)
        return tally
    if isinstance(node, ast.Subscript):  # x[0], t[3], f(...)[()]: the index is no arithmetic
        return count_ast(node.value, tally)
    for child in ast.iter_child_nodes(node):
        count_ast(child, tally)
    return tally


def count_expression_text(text: str) -> Counter:
    """Operations of one expression in Python syntax."""
    return count_ast(ast.parse(text.strip(), mode="eval").body)


def total(tally: Counter) -> int:
    return tally["additions"] + tally["multiplications"]


# ---------------------------------------------------------------- languages
def count_python(source: str, name: str = "f") -> Counter:
    """Operations in the body of the function ``name`` of a Python/NumPy module (docstring excluded)."""
    module = ast.parse(source)
    func = next(n for n in module.body if isinstance(n, ast.FunctionDef) and n.name == name)
    tally = Counter()
    for stmt in func.body:
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
            continue  # the docstring
        count_ast(stmt, tally)
    return tally


_C_LITERAL = re.compile(r"(\d(?:[\d.]*)(?:[eE][+-]?\d+)?)[LlFf]\b")
_C_STATEMENT = re.compile(r"^\s*(?:const\s+[\w ]+?\s+)?[\w\[\]]+\s*=\s*(.*);\s*$|^\s*return\s+(.*);\s*$")


def count_c(source: str) -> Counter:
    """Operations in the assignments and returns of a C translation unit.

    The batch function (``*_batch``, a loop over points) and the
    double-double runtime (``static inline``) are skipped.
    """
    tally = Counter()
    skipping = False
    depth = 0
    source = re.sub(r"/\*.*?\*/", "", source, flags=re.S)
    source = "\n".join(line for line in source.splitlines() if not line.lstrip().startswith("#"))
    for line in source.splitlines():
        stripped = line.strip()
        if depth == 0 and stripped.endswith("{"):
            skipping = "_batch(" in stripped or stripped.startswith("static inline")
        if depth == 0 and stripped.startswith("static inline") and stripped.endswith("}"):
            continue  # a one-line runtime function
        depth += line.count("{") - line.count("}")
        if skipping or depth == 0:
            continue
        m = _C_STATEMENT.match(line)
        if m:
            text = _C_LITERAL.sub(r"\1", m.group(1) or m.group(2))
            count_ast(ast.parse(text, mode="eval").body, tally)
    return tally


_F_LITERAL = re.compile(r"(\d(?:[\d.]*)(?:[eEdD][+-]?\d+)?)_wp\b")


def count_fortran(source: str) -> Counter:
    """Operations in the assignments of a Fortran unit (the batch subroutine skipped)."""
    source = re.split(r"(?im)^subroutine \w+_batch\(", source)[0]
    joined = re.sub(r"&\s*\n\s*&?", "", source)
    tally = Counter()
    for line in joined.splitlines():
        stripped = line.strip()
        low = stripped.lower()
        if low.startswith(("function", "subroutine")):
            continue
        if not stripped or stripped.startswith("!"):
            continue
        if "::" in stripped or low.startswith(("use", "implicit", "end", "do", "interface", "import")):
            continue
        if "=" in stripped:
            rhs = stripped.split("=", 1)[1]
            rhs = _F_LITERAL.sub(r"\1", rhs)
            rhs = re.sub(r"\b(\d+(?:\.\d*)?)[dD]([+-]?\d+)\b", r"\1e\2", rhs)  # 1d0 -> 1e0
            count_ast(ast.parse(rhs.strip(), mode="eval").body, tally)
    return tally


def count_form(code: str) -> Counter:
    """Operations in FORM's ``%O`` output plus ``F = %e``: statements ``NAME = expr;`` with ``^`` powers."""
    tally = Counter()
    text = " ".join(code.split())
    for statement in text.split(";"):
        if "=" not in statement:
            continue
        rhs = statement.split("=", 1)[1].replace("^", "**")
        count_ast(ast.parse(rhs.strip(), mode="eval").body, tally)
    return tally


def count_sympy_tree(expr, tally: Counter | None = None) -> Counter:
    """Operations of one SymPy expression tree as it stands (nothing re-evaluated).

    ``Add`` of k terms: k-1 additions.  ``Mul``: each factor after the first
    one multiplication, where a number is a factor unless it is +-1 (a sign);
    factors ``b**-n`` are divided by: one division for all of them, the
    others multiplied together.  ``b**n`` (integer n): squaring; a function
    or any other power: free, its arguments counted.
    """
    import sympy

    tally = Counter() if tally is None else tally
    if expr.is_Atom:
        return tally
    if isinstance(expr, sympy.Add):
        tally["additions"] += len(expr.args) - 1
        for a in expr.args:
            count_sympy_tree(a, tally)
        return tally
    if isinstance(expr, sympy.Mul):
        top = [a for a in expr.args if not (a.is_Number and abs(a) == 1)
               and not (isinstance(a, sympy.Pow) and a.exp.is_Integer and a.exp < 0)]
        bottom = [a for a in expr.args if isinstance(a, sympy.Pow) and a.exp.is_Integer and a.exp < 0]
        tally["multiplications"] += max(len(top) - 1, 0) + max(len(bottom) - 1, 0) + bool(bottom)
        for a in top:
            count_sympy_tree(a, tally)
        for a in bottom:
            tally["multiplications"] += squaring_cost(-int(a.exp))
            count_sympy_tree(a.base, tally)
        return tally
    if isinstance(expr, sympy.Pow) and expr.exp.is_Integer:
        n = int(expr.exp)
        tally["multiplications"] += squaring_cost(abs(n)) + (n < 0)
        return count_sympy_tree(expr.base, tally)
    for a in expr.args:
        count_sympy_tree(a, tally)
    return tally


def count_sympy(replacements, exprs) -> Counter:
    """Operations of ``sympy.cse``-shaped output: every replacement once, then the outputs.

    A temporary is free to read; each is counted where it is defined.
    """
    tally = Counter()
    for _, rhs in replacements:
        count_sympy_tree(rhs, tally)
    for expr in exprs:
        count_sympy_tree(expr, tally)
    return tally


def count_graph(graph) -> int:
    """Operations of the networkx view: one per ``add``/``mul`` node, plus what the inputs' pieces compute."""
    ops = sum(1 for _, op in graph.nodes(data="op") if op in ("add", "mul"))
    return ops + sum(graph.nodes[n].get("operations", 0) for n in graph.nodes)
