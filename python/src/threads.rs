//! `threads=`: the crate's parallel paths run in a rayon pool of that many threads (their
//! values are bitwise those of one thread); one thread takes the sequential path.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use pyo3::exceptions::PyValueError;
use pyo3::PyResult;

/// Pools by size, built once: starting threads on every call would cost more than small
/// inputs take to evaluate.
fn pools() -> &'static Mutex<HashMap<usize, Arc<rayon::ThreadPool>>> {
    static POOLS: OnceLock<Mutex<HashMap<usize, Arc<rayon::ThreadPool>>>> = OnceLock::new();
    POOLS.get_or_init(|| Mutex::new(HashMap::new()))
}

/// The pool for `threads` threads (at least 2; one thread needs no pool).
pub fn pool(threads: usize) -> PyResult<Arc<rayon::ThreadPool>> {
    let mut pools = pools()
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(pool) = pools.get(&threads) {
        return Ok(Arc::clone(pool));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| PyValueError::new_err(format!("cannot start {threads} threads: {e}")))?;
    let pool = Arc::new(pool);
    pools.insert(threads, Arc::clone(&pool));
    Ok(pool)
}
