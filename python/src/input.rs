//! numpy arrays as the crate's matrices: read-only views of any strides, never copied or cast
//! here (the Python layer has already brought other dtypes to one of these).

use numpy::{PyReadonlyArray1, PyReadonlyArray2};
use pyo3::prelude::*;

/// `y_true` in one of the element types the crate reads directly (`bool` arrives as `uint8`,
/// the same bytes).
#[derive(FromPyObject)]
pub enum Labels<'py> {
    /// 0/1 or boolean labels.
    U8(PyReadonlyArray2<'py, u8>),
    /// 32-bit integer labels (or gains).
    I32(PyReadonlyArray2<'py, i32>),
    /// 64-bit integer labels (or gains).
    I64(PyReadonlyArray2<'py, i64>),
    /// Single-precision labels (or gains).
    F32(PyReadonlyArray2<'py, f32>),
    /// Double-precision labels (or gains).
    F64(PyReadonlyArray2<'py, f64>),
}

/// `y_score` as float32 or float64: the element type decides, for torchmetrics' presets,
/// whether its float32 or float64 arithmetic is reproduced.
#[derive(FromPyObject)]
pub enum Scores<'py> {
    /// float32 scores, ranked as float32.
    F32(PyReadonlyArray2<'py, f32>),
    /// float64 scores.
    F64(PyReadonlyArray2<'py, f64>),
}

/// Per-sample weights, float64 and contiguous (the Python layer makes them so).
pub type Weights<'py> = Option<PyReadonlyArray1<'py, f64>>;

/// Runs `$body` with `$y` and `$s` bound to ndarray views of the inputs, in each of the label ×
/// score type combinations, with the GIL released (the views are `Send`; the caller must not
/// mutate the arrays during the call, as with numpy's own GIL-free functions).
macro_rules! with_views {
    ($py:expr, $labels:expr, $scores:expr, |$y:ident, $s:ident| $body:expr) => {{
        use $crate::input::{Labels, Scores};
        macro_rules! arm {
            ($a:expr, $b:expr) => {{
                let $y = $a.as_array();
                let $s = $b.as_array();
                $py.detach(|| $body)
            }};
        }
        match ($labels, $scores) {
            (Labels::U8(a), Scores::F32(b)) => arm!(a, b),
            (Labels::U8(a), Scores::F64(b)) => arm!(a, b),
            (Labels::I32(a), Scores::F32(b)) => arm!(a, b),
            (Labels::I32(a), Scores::F64(b)) => arm!(a, b),
            (Labels::I64(a), Scores::F32(b)) => arm!(a, b),
            (Labels::I64(a), Scores::F64(b)) => arm!(a, b),
            (Labels::F32(a), Scores::F32(b)) => arm!(a, b),
            (Labels::F32(a), Scores::F64(b)) => arm!(a, b),
            (Labels::F64(a), Scores::F32(b)) => arm!(a, b),
            (Labels::F64(a), Scores::F64(b)) => arm!(a, b),
        }
    }};
}
pub(crate) use with_views;

/// The weights as a slice (`None` when absent).
pub fn weights<'a>(w: &'a Weights<'_>) -> PyResult<Option<&'a [f64]>> {
    match w {
        None => Ok(None),
        Some(w) => Ok(Some(w.as_slice().map_err(|_| {
            pyo3::exceptions::PyValueError::new_err(
                "sample_weight must be a contiguous float64 array",
            )
        })?)),
    }
}
