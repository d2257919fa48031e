"""Inputs as the compiled module reads them: 2-D numpy arrays of a few element types, viewed
without copies whenever numpy can (any strides, float32 kept as float32)."""

from __future__ import annotations

from typing import Any, Optional, Tuple

import numpy as np

from .exceptions import RankmetricsError

# Element types read in place; others are converted (a copy, said in the docs).
_LABEL_DTYPES: Tuple[type, ...] = (np.uint8, np.int32, np.int64, np.float32, np.float64)
_SCORE_DTYPES: Tuple[type, ...] = (np.float32, np.float64)


def _is_sparse(x: Any) -> bool:
    return hasattr(x, "tocsr") and hasattr(x, "toarray") and hasattr(x, "nnz")


def as_array(x: Any, name: str) -> np.ndarray:
    """``x`` as a numpy array (lists, numpy arrays, anything with ``__array__``; scipy.sparse
    matrices are made dense)."""
    if _is_sparse(x):
        x = x.toarray()
    if isinstance(x, np.ndarray):
        return x
    try:
        return np.asarray(x)
    except (ValueError, TypeError) as e:  # ragged lists, objects numpy cannot read
        raise RankmetricsError(f"{name} is not a rectangular array: {e}", "Input", {"input": name}) from e


def _native(x: np.ndarray) -> np.ndarray:
    """Native byte order and aligned storage, as the compiled module reads (a copy only for
    big-endian or misaligned arrays)."""
    if not x.dtype.isnative:
        x = x.astype(x.dtype.newbyteorder("="))
    if not x.flags.aligned:
        x = x.copy()
    return x


def _two_d(x: np.ndarray, name: str) -> np.ndarray:
    if x.ndim != 2:
        raise RankmetricsError(
            f"{name} must be 2-D (samples, labels); got an array of shape {x.shape}",
            "Input",
            {"input": name, "found": x.shape},
        )
    return x


def labels(y_true: Any, name: str = "y_true") -> np.ndarray:
    """``y_true`` as a 2-D array of uint8 (bool is viewed as uint8), int32, int64, float32 or
    float64."""
    y = _two_d(as_array(y_true, name), name)
    kind = y.dtype.kind
    if kind == "b":
        y = y.view(np.uint8)
    elif y.dtype.type in _LABEL_DTYPES:
        pass
    elif kind in "iu":
        if kind == "u" and y.dtype.itemsize == 8 and y.size and y.max() > np.iinfo(np.int64).max:
            raise RankmetricsError(f"{name} holds integers too large for int64", "Input", {"input": name})
        y = y.astype(np.int64)
    elif kind == "f":
        y = y.astype(np.float64)
    else:
        try:
            y = y.astype(np.float64)
        except (ValueError, TypeError) as e:
            raise RankmetricsError(
                f"{name} must hold numbers or booleans; got dtype {y.dtype}", "Input", {"input": name}
            ) from e
    return _native(y)


def scores(y_score: Any, name: str = "y_score") -> np.ndarray:
    """``y_score`` as a 2-D float32 or float64 array (float32 stays float32; float16 becomes
    float32; integers and booleans become float64)."""
    s = _two_d(as_array(y_score, name), name)
    if s.dtype.type in _SCORE_DTYPES:
        pass
    elif s.dtype == np.float16:
        s = s.astype(np.float32)
    else:
        try:
            s = s.astype(np.float64)
        except (ValueError, TypeError) as e:
            raise RankmetricsError(f"{name} must hold numbers; got dtype {s.dtype}", "Input", {"input": name}) from e
    return _native(s)


def weights(sample_weight: Any) -> Optional[np.ndarray]:
    """``sample_weight`` as a contiguous 1-D float64 array (or None)."""
    if sample_weight is None:
        return None
    w = as_array(sample_weight, "sample_weight")
    if w.ndim != 1:
        raise RankmetricsError(
            f"sample_weight must be 1-D; got an array of shape {w.shape}",
            "Input",
            {"input": "sample_weight", "found": w.shape},
        )
    try:
        return np.ascontiguousarray(w, dtype=np.float64)
    except (ValueError, TypeError) as e:
        raise RankmetricsError(
            f"sample_weight must hold numbers; got dtype {w.dtype}", "Input", {"input": "sample_weight"}
        ) from e


def threads(n: Optional[int]) -> int:
    """``threads=``: None is one thread, -1 every core, otherwise that many (at least 1)."""
    if n is None:
        return 1
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise TypeError(f"threads must be an int or None; got {n!r}")
    if n == -1:
        import os

        return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1))
    if n < 1:
        raise ValueError(f"threads must be at least 1, or -1 for every core; got {n}")
    return int(n)


def ties(policy: Optional[str]) -> Optional[str]:
    """``ties=``: None keeps the convention's rule; otherwise a policy name."""
    if policy is None:
        return None
    if not isinstance(policy, str):
        raise TypeError(f"ties must be a string such as 'max' or 'random:7', or None; got {policy!r}")
    return policy
