"""Type stubs of the compiled module (``rankmetrics._rankmetrics``)."""

from typing import Any, Dict, List, Optional, Tuple, Union

import numpy as np
import numpy.typing as npt
from typing_extensions import final

__all__ = [
    "__version__",
    "Accumulator",
    "Metric",
    "aggregate_query_values",
    "chart",
    "compare",
    "grid_layout",
    "grid_summary",
    "identify",
    "inverse_propensities",
    "metric_names",
    "param_keys",
    "reproduces",
    "set_micro_pool_cells",
]

_Labels = Union[
    npt.NDArray[np.uint8],
    npt.NDArray[np.int32],
    npt.NDArray[np.int64],
    npt.NDArray[np.float32],
    npt.NDArray[np.float64],
]
_Scores = Union[npt.NDArray[np.float32], npt.NDArray[np.float64]]

__version__: str

@final
class Metric:
    @staticmethod
    def preset(
        convention: str,
        metric: str,
        params: List[Tuple[str, str]],
        ties: Optional[str] = None,
    ) -> Metric: ...
    def evaluate(
        self,
        y_true: _Labels,
        y_score: _Scores,
        sample_weight: Optional[npt.NDArray[np.float64]] = None,
        threads: int = 1,
    ) -> float: ...
    def per_sample(self, y_true: _Labels, y_score: _Scores, threads: int = 1) -> npt.NDArray[np.float64]: ...
    def per_label(
        self, y_true: _Labels, y_score: _Scores, sample_weight: Optional[npt.NDArray[np.float64]] = None
    ) -> npt.NDArray[np.float64]: ...
    def query_values(
        self,
        indexes: npt.NDArray[np.int64],
        y_true: Union[npt.NDArray[np.int64], npt.NDArray[np.float32]],
        y_score: Union[npt.NDArray[np.float32], npt.NDArray[np.float64]],
        empty_target_action: str,
    ) -> npt.NDArray[np.float64]: ...
    def accumulator(
        self, first_row: Optional[int] = None, runs: bool = False, sigmoid_per_batch: bool = False
    ) -> Accumulator: ...
    def params(self) -> List[Tuple[str, str]]: ...
    def unproven_end(self, weighted: bool) -> Optional[str]: ...
    def name(self) -> str: ...

@final
class Accumulator:
    def __new__(cls, state: Optional[bytes] = None) -> Accumulator: ...
    def update(
        self,
        y_true: _Labels,
        y_score: _Scores,
        sample_weight: Optional[npt.NDArray[np.float64]] = None,
        threads: int = 1,
        memory_order: Optional[str] = None,
    ) -> None: ...
    def merge(self, other: Accumulator) -> None: ...
    def value(self) -> float: ...
    def per_label(self) -> npt.NDArray[np.float64]: ...
    def reset(self) -> None: ...
    def rows(self) -> List[Tuple[int, int]]: ...
    def __getstate__(self) -> bytes: ...
    # Raises IncompatibleStateError (kind "State") for a state of another version or an
    # altered one: the state is checked whole when read.
    def __setstate__(self, state: bytes) -> None: ...
    def __copy__(self) -> Accumulator: ...
    def __deepcopy__(self, memo: Any) -> Accumulator: ...
    def __eq__(self, value: object, /) -> bool: ...

def compare(
    y_true: _Labels,
    y_score: _Scores,
    sample_weight: Optional[npt.NDArray[np.float64]] = None,
    threads: int = 1,
) -> Tuple[List[Dict[str, Any]], str]: ...
def reproduces() -> List[Tuple[str, str]]: ...
def chart(
    rows: List[Tuple[str, List[Tuple[str, Optional[float], bool]], Optional[Tuple[float, float]], Optional[float]]],
) -> Tuple[str, List[Dict[str, Any]]]: ...
def identify(
    y_true: _Labels,
    y_score: _Scores,
    sample_weight: Optional[npt.NDArray[np.float64]],
    values: List[str],
    metric: Optional[str] = None,
    tolerance: Optional[float] = None,
    threads: int = 1,
) -> List[Dict[str, Any]]: ...
def grid_layout() -> List[Dict[str, Any]]: ...
def grid_summary(metric: str, values: List[Tuple[str, float]], weighted: bool = False) -> Dict[str, Any]: ...
def aggregate_query_values(values: List[float], aggregation: str) -> float: ...
def metric_names(convention: str) -> List[str]: ...
def set_micro_pool_cells(cells: Optional[int]) -> None: ...
def param_keys(convention: str, metric: str) -> List[str]: ...
def inverse_propensities(frequencies: List[float], n: int, a: float = 0.55, b: float = 1.5) -> List[float]: ...
