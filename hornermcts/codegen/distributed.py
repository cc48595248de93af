"""Billions of evaluations on a Dask cluster: the compiled evaluator mapped over the chunks of a ``dask.array``.

:func:`evaluate_dask` maps a :class:`~hornermcts.codegen.compiled.CompiledPolynomial`
over the blocks of a dask array of points (``map_blocks``): each task
evaluates one chunk in C, one thread per task (the cluster's workers run the
tasks side by side), and memory stays bounded by the chunks in flight, so
the points never need to fit in one machine.  The callable travels to the
workers as its C source (it pickles so): each worker loads the library from
its own cache or builds it once with its compiler.

Needs ``dask`` (``pip install 'hornermcts[dask]'``); a ``dask.distributed``
cluster is optional (without one, dask's local scheduler runs the chunks on
threads).  ``benchmarks/dask_evaluation.py`` measures the throughput per
worker against the same callable in one process.

Examples
--------
>>> import dask.array as da, numpy as np, sympy
>>> from hornermcts import optimize
>>> x, y = sympy.symbols("x y")
>>> points = da.from_array(np.array([[1.0, 2.0], [2.0, 0.5], [0.0, 1.0]]), chunks=(2, 2))
>>> values = evaluate_dask(optimize(3*x**2*y - 1), points, args=(x, y))   # args: the order on the last axis
>>> values.compute(scheduler="threads").tolist()
[5.0, 5.0, -1.0]
"""
from __future__ import annotations

from ..errors import OptionError
from .compiled import CompiledPolynomial, compile

__all__ = ["evaluate_dask"]


def evaluate_dask(obj, points, **compile_options):
    """The values of ``obj`` at the dask array ``points``, as a dask array (lazy: ``.compute()`` runs it).

    Parameters
    ----------
    obj : CompiledPolynomial, or what :func:`~hornermcts.codegen.compile` takes
        A result, DAG or list of them is compiled first, with ``compile_options``.
    points : dask.array.Array or array-like
        Shape ``(..., nvars)``, one point per row, the variables in the order
        of ``compiled.symbols`` (:func:`~hornermcts.codegen.input_symbols`);
        chunked along the leading axes as the caller likes (a chunking of
        the last axis is undone: each block needs whole points).

    Returns
    -------
    dask.array.Array
        Shape ``points.shape[:-1]``, with a last axis of ``n_outputs`` for
        several outputs: the shapes of the compiled callable on a NumPy array
        (float64; ``numpy.longdouble`` for precision "long double").
    """
    try:
        import dask.array as da
    except ImportError:
        raise ImportError("evaluate_dask needs dask: pip install 'hornermcts[dask]'") from None
    compiled = obj if isinstance(obj, CompiledPolynomial) else compile(obj, **compile_options)
    points = da.asarray(points)
    nv = len(compiled.symbols)
    if points.ndim == 0 or points.shape[-1] != nv:
        raise OptionError(f"points must have {nv} values on their last axis "
                          f"({', '.join(map(str, compiled.symbols))}), got shape {points.shape}")
    if len(points.chunks[-1]) > 1:
        points = points.rechunk({points.ndim - 1: -1})
    points = points.astype("float64")
    # the variables' axis becomes the outputs' (not dropped: dask would copy each block to concatenate it along
    # the dropped axis, a third of the time on HEP(sigma)), then one output is read as a view
    values = points.map_blocks(_evaluate, compiled, dtype=compiled.dtype,
                               chunks=points.chunks[:-1] + ((compiled.n_outputs,),))
    return values if compiled.n_outputs > 1 else values[..., 0]


def _evaluate(block, compiled: CompiledPolynomial):
    """One chunk's values ``(..., n_outputs)``, on one thread: the cluster runs the chunks side by side."""
    values = compiled(block, workers=1)
    return values if compiled.n_outputs > 1 else values[..., None]
