"""The optimized form as a hash-consed DAG (:mod:`.graph`, where identical subtrees are one node,
so common subexpressions are shared as they are built): the Horner scheme of an order
(:mod:`.horner`), the input as given (:mod:`.given`), the greedy rewrites after CSE
(:mod:`.greedy`), and its views as SymPy, networkx and numbers (:mod:`.views`)."""
from ..cost.counting import power_plan  # exported here before it joined the cost rules
from .graph import ONE, Add, Dag, Mul, Node, One, Pow, Scale, Walk, content

__all__ = ["Dag", "Walk", "Node", "One", "Pow", "Mul", "Add", "Scale", "power_plan", "content", "ONE"]
