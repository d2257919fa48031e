"""How ``rankmetrics.torchmetrics`` reads torch's inputs: tensors without importing torch, the
preds' dtype torchmetrics computes in, torchmetrics' checks of a multilabel batch, and torch's
CPU kernel for the sigmoid."""

from __future__ import annotations

import sys
from typing import Any, Dict, Optional, Tuple

import numpy as np

from . import _input
from .exceptions import ParameterError, RankmetricsError


def untracked(x: Any) -> Tuple[Any, Optional[str]]:
    """``x`` as numpy can read it, and torch's dtype name where numpy has no such dtype.

    A torch tensor (recognised by its methods; torch is not imported) is detached from
    autograd and brought to the CPU, as a model's output needs before numpy reads it; a
    bfloat16 tensor, which numpy lacks, is widened to float32 (exactly) and named
    ``"bfloat16"``.
    """
    detach, cpu = getattr(x, "detach", None), getattr(x, "cpu", None)
    if callable(detach) and callable(cpu) and hasattr(x, "dtype"):
        x = x.detach().cpu()
        if str(x.dtype) == "torch.bfloat16":
            return x.float(), "bfloat16"
    return x, None


def preds_and_dtype(preds: Any) -> Tuple[np.ndarray, str]:
    """``preds`` as a numpy array, and the torch dtype torchmetrics computes its sigmoid in.

    Integer and boolean preds are refused, as torchmetrics refuses them.
    """
    preds, dtype = untracked(preds)
    shown = str(getattr(preds, "dtype", ""))
    s = _input.as_array(preds, "preds")
    if dtype is None:
        names = {np.dtype(np.float16): "float16", np.dtype(np.float32): "float32", np.dtype(np.float64): "float64"}
        dtype = names.get(s.dtype.newbyteorder("="))
    if dtype is None:
        if s.dtype.kind in "biu":
            raise RankmetricsError(
                "Expected preds tensor to be floating point, but received input with dtype "
                f"{shown if shown.startswith('torch.') else s.dtype}",
                "Input",
                {"input": "preds"},
            )
        dtype = "float64"
    return s, dtype


def check_num_labels(num_labels: Any) -> None:
    """torchmetrics' check of ``num_labels``: an integer of at least 2."""
    if not isinstance(num_labels, int) or num_labels < 2:
        raise ParameterError(
            f"Expected argument `num_labels` to be an integer larger than 1, but got {num_labels}",
            "InvalidParam",
            {"parameter": "num_labels", "value": num_labels},
        )


def memory_order(a: np.ndarray) -> str:
    """How the 2-D ``a`` lies in memory, as the tensor torch's sigmoid runs over (a tensor read
    through ``__array__`` keeps its strides): ``"c"`` or ``"f"`` (dense), ``"rows"`` or
    ``"columns"`` (each row, or column, contiguous, with gaps between them), else
    ``"strided"``."""
    if a.flags.c_contiguous:
        return "c"
    if a.flags.f_contiguous:
        return "f"
    if a.ndim == 2 and a.strides[1] == a.itemsize:
        return "rows"
    if a.ndim == 2 and a.strides[0] == a.itemsize:
        return "columns"
    return "strided"


def multilabel_batch(
    preds: Any, target: Any, num_labels: int, ignore_index: Optional[int]
) -> Tuple[np.ndarray, np.ndarray, str, str]:
    """A multilabel batch checked as torchmetrics checks it: the scores, the labels, the
    preds' dtype and their memory order."""
    if ignore_index is not None:
        raise NotImplementedError("ignore_index is not reproduced by rankmetrics")
    preds, dtype = preds_and_dtype(preds)
    order = memory_order(preds)
    s = _input.scores(preds, "preds")
    y = _input.labels(untracked(target)[0], "target")
    check_num_labels(num_labels)
    if s.shape[1] != num_labels:
        raise ParameterError(
            f"Expected both `target.shape[1]` and `preds.shape[1]` to be equal to the number of "
            f"labels but got {y.shape[1]} and {s.shape[1]} and expected {num_labels}",
            "InvalidParam",
            {"parameter": "num_labels", "value": num_labels},
        )
    return s, y, dtype, order


def kernel(sigmoid: str, torch_threads: Optional[int]) -> Dict[str, Any]:
    """The registry's ``sigmoid`` and ``torch_threads``: torch's threads are its own count when
    torch is loaded (``torch.get_num_threads()``), else 1, unless given."""
    if torch_threads is None:
        torch = sys.modules.get("torch")
        get = getattr(torch, "get_num_threads", None)
        torch_threads = int(get()) if callable(get) else 1
    return {"sigmoid": sigmoid, "torch_threads": torch_threads}


def curve_average(average: Optional[str], thresholds: Any) -> str:
    """torchmetrics' ``average`` as a name (None is ``"none"``, one value per label); what is
    not reproduced raises."""
    if thresholds is not None:
        raise NotImplementedError("binned curves (thresholds) are not reproduced: only thresholds=None")
    if average is None:
        return "none"
    if average not in ("macro", "micro", "weighted", "none"):
        raise ParameterError(
            f"Expected argument `average` to be one of ('micro', 'macro', 'weighted', 'none', None) but got {average}",
            "InvalidParam",
            {"parameter": "average", "value": average},
        )
    return average


def retrieval_types(s: np.ndarray, y: np.ndarray, binary: bool) -> None:
    """torchmetrics' checks of a retrieval input's dtypes, in its order (the target's dtype,
    the preds' dtype, then binary targets where ``binary``), and rankmetrics' refusal of
    fractional targets."""
    if y.dtype.kind not in "bf" and y.dtype.newbyteorder("=") not in (np.dtype(np.int64), np.dtype(np.int32)):
        raise RankmetricsError(
            "`target` must be a tensor of booleans, integers or floats", "Input", {"input": "target"}
        )
    if s.dtype.kind not in "f":
        raise RankmetricsError("`preds` must be a tensor of floats", "Input", {"input": "preds"})
    if binary and y.size and (y.max() > 1 or y.min() < 0):
        raise RankmetricsError("`target` must contain `binary` values", "Input", {"input": "target"})
    if binary and not bool(np.all((y == 0) | (y == 1))):
        # A deliberate difference: torchmetrics takes fractions in [0, 1] here.
        raise RankmetricsError(
            "targets must be 0 or 1 (rankmetrics does not take the fractions in [0, 1] that torchmetrics takes)",
            "InvalidLabel",
            {"input": "target"},
        )
