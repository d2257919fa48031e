"""scikit-learn's input checks for the ranking metrics, with its messages: what
``check_array``, ``check_consistent_length``, ``type_of_target`` and the metrics' own checks
reject is rejected here too (as :class:`ParameterError` for parameters, else
:class:`RankmetricsError`, both ``ValueError``). The values themselves are checked again by
the compiled module (finite scores, labels, weights)."""

from __future__ import annotations

import numbers
from typing import Any, Optional, Tuple

import numpy as np

from . import _input
from .exceptions import ParameterError, RankmetricsError


def fail(message: str, **details: Any) -> RankmetricsError:
    return RankmetricsError(message, "Input", details)


def check_array(x: Any, name: str, *, ensure_2d: bool) -> np.ndarray:
    """``sklearn.utils.check_array``'s shape rules (and its NaN/inf rule for ``y_true``)."""
    a = _input.as_array(x, name)
    if a.dtype.kind in "OUS":
        try:
            a = a.astype(np.float64)
        except (TypeError, ValueError) as e:
            raise fail(f"{name} must hold numbers; got dtype {a.dtype}", input=name) from e
    elif a.dtype.kind not in "biuf":
        raise fail(f"{name} must hold numbers; got dtype {a.dtype}", input=name)
    if a.ndim == 0:
        raise fail(f"Expected 2D array, got scalar array instead: {name}={a!r}", input=name)
    if a.ndim == 1 and ensure_2d:
        raise fail(
            f"Expected 2D array, got 1D array instead: {name}. Reshape your data either using "
            "array.reshape(-1, 1) if your data has a single feature or array.reshape(1, -1) if "
            "it contains a single sample.",
            input=name,
        )
    if a.ndim > 2:
        raise fail(f"Found array with dim {a.ndim} while dim <= 2 is required by {name}.", input=name)
    if a.shape[0] == 0:
        raise fail(
            f"Found array with 0 sample(s) (shape={a.shape}) while a minimum of 1 is required.",
            input=name,
        )
    if a.ndim == 2 and a.shape[1] == 0:
        raise fail(
            f"Found array with 0 feature(s) (shape={a.shape}) while a minimum of 1 is required.",
            input=name,
        )
    if a.dtype.kind == "f" and name == "y_true" and not np.isfinite(a).all():
        what = "NaN" if np.isnan(a).any() else "infinity or a value too large for dtype('float64')"
        raise fail(f"Input {name} contains {what}.", input=name)
    return a


def check_consistent_length(*arrays: Any) -> None:
    lengths = [len(a) for a in arrays if a is not None]
    if len(set(lengths)) > 1:
        raise fail(f"Found input variables with inconsistent numbers of samples: {[int(n) for n in lengths]}")


def sample_weight(w: Any) -> Optional[np.ndarray]:
    if w is None:
        return None
    a = np.asarray(w)
    if a.ndim == 2 and a.shape[1] == 1:
        a = a.ravel()
    if a.ndim != 1:
        raise fail(f"y should be a 1d array, got an array of shape {a.shape} instead.", input="sample_weight")
    return a


def two_values(y: np.ndarray) -> Optional[Tuple[float, ...]]:
    """The distinct values of ``y`` when there are at most two (else None), with two or three
    vectorised passes instead of a sort."""
    if y.dtype.kind == "b":
        return (0, 1) if y.size else ()
    lo, hi = y.min(), y.max()
    if lo == hi:
        return (lo,)
    if y.dtype.kind in "iu" and hi - lo == 1:
        return (lo, hi)  # integers between two consecutive ones: no third pass
    if np.count_nonzero((y != lo) & (y != hi)) == 0:
        return (lo, hi)
    return None


def _integral(y: np.ndarray) -> bool:
    return y.dtype.kind in "biu" or bool(np.all(y == np.floor(y)))


def type_of_target(y: np.ndarray) -> str:
    """``sklearn.utils.multiclass.type_of_target`` for numeric arrays of 1 or 2 dimensions."""
    return target(y)[0]


def target(y: np.ndarray) -> Tuple[str, Optional[Tuple[float, ...]]]:
    """:func:`type_of_target` and :func:`two_values` of ``y``, from one reading of its values
    (the callers need both)."""
    values = two_values(y)
    return _target_type(y, values), values


def _target_type(y: np.ndarray, values: Optional[Tuple[float, ...]]) -> str:
    multioutput = y.ndim == 2 and y.shape[1] > 1
    if multioutput and values is not None and (y.dtype.kind in "biu" or _integral(np.asarray(values))):
        return "multilabel-indicator"
    if y.dtype.kind == "f" and not _integral(y):
        return "continuous-multioutput" if multioutput else "continuous"
    if values is None:
        return "multiclass-multioutput" if multioutput else "multiclass"
    return "multiclass-multioutput" if multioutput else "binary"


def relevant_nonzero(y: np.ndarray, values: Optional[Tuple[float, ...]]) -> np.ndarray:
    """A multilabel indicator whose values (``two_values(y)``) are not 0 and 1 (e.g.
    ``{-1, 1}``), as the row-wise metrics read it: any non-zero value is relevant (a copy only
    in that case)."""
    if values is not None and set(np.asarray(values).tolist()) <= {0, 1}:
        return y
    return (y != 0).view(np.uint8) if y.dtype.kind != "b" else y


def check_k(k: Any) -> None:
    if k is not None and (isinstance(k, (bool, np.bool_)) or not isinstance(k, numbers.Integral) or k < 1):
        raise ParameterError(
            f"The 'k' parameter must be an int in the range [1, inf) or None. Got {k!r} instead.",
            "InvalidParam",
            {"parameter": "k", "value": k},
        )


def check_bool(name: str, v: Any) -> None:
    if not isinstance(v, (bool, np.bool_)):
        raise ParameterError(
            f"The '{name}' parameter must be an instance of 'bool' or 'numpy.bool'. Got {v!r} instead.",
            "InvalidParam",
            {"parameter": name, "value": v},
        )


def check_average(average: Any) -> None:
    if average not in (None, "micro", "macro", "weighted", "samples"):
        raise ParameterError(
            "The 'average' parameter must be a str among {'macro', 'micro', 'samples', 'weighted'} "
            f"or None. Got {average!r} instead.",
            "InvalidParam",
            {"parameter": "average", "value": average},
        )
