//! The orders in which torch's CPU `argsort` (`stable=False`, the default) and `topk` put
//! tied scores, and a [`Matrix`] view that ranks each row by the former ([`TorchOrder`]).
//!
//! torch sorts a CPU tensor with the C++ standard library's `std::sort` (GNU libstdc++ on
//! Linux builds), on (value, index) pairs compared by value alone: an introsort whose order
//! of equal values is not the columns' above 16 elements, but is fixed by the algorithm. This
//! module follows that algorithm step by step: median-of-three pivots moved to the front,
//! unguarded Hoare partitions, recursion on the right part, a heap sort below a depth of
//! 2⌊log2 n⌋, and an insertion sort of the first 16 elements then of the rest. `topk` takes
//! the standard library's `partial_sort` (a heap) when `64 k <= n`, else its `nth_element`
//! (introselect, the same partitions) then `std::sort` of the first `k - 1`.

use core::ops::Range;

use crate::matrix::Matrix;
use crate::score::Score;

/// The elements below which introsort leaves a part to the final insertion sort.
const THRESHOLD: usize = 16;

/// `order` becomes the permutation `torch.argsort(values)` gives (ascending, by value only;
/// values must not be NaN): `order[r]` is the index of the element at position `r`.
pub(crate) fn torch_argsort(values: &[f64], order: &mut Vec<u32>) {
    identity(values.len(), order);
    std_sort(order, &|a: &u32, b: &u32| {
        values[*a as usize] < values[*b as usize]
    });
}

/// `order` becomes `torch.argsort(values, descending=True)` (values must not be NaN).
pub(crate) fn torch_argsort_descending(values: &[f64], order: &mut Vec<u32>) {
    identity(values.len(), order);
    std_sort(order, &|a: &u32, b: &u32| {
        values[*a as usize] > values[*b as usize]
    });
}

/// The length from which torch sorts a 1-D integer tensor with its stable radix sort (FBGEMM's,
/// in the x86-64 builds) rather than `std::sort`: ATen's grain size.
const RADIX_SORT_FROM: usize = 32_768;

/// `order` becomes the permutation `torch.sort(indexes)` gives on a 1-D `int64` CPU tensor
/// (ascending): `std::sort`'s order of equal values below 32,768 elements, their original
/// order from there (the radix sort is stable; measured on torch 2.15 at 32,767 and 32,768).
pub(crate) fn torch_sort_int64(indexes: &[i64], order: &mut Vec<u32>) {
    identity(indexes.len(), order);
    if indexes.len() >= RADIX_SORT_FROM {
        order.sort_by_key(|&i| indexes[i as usize]);
    } else {
        std_sort(order, &|a: &u32, b: &u32| {
            indexes[*a as usize] < indexes[*b as usize]
        });
    }
}

/// `order` becomes `torch.topk(values, k).indices` (largest first, `sorted=True`; values must
/// not be NaN): the indices of the `k` largest values (`k` at most their number), as torch's
/// CPU kernel selects and orders them.
pub(crate) fn torch_topk(values: &[f64], k: usize, order: &mut Vec<u32>) {
    let n = values.len();
    let k = k.min(n);
    identity(n, order);
    if k == 0 {
        order.clear();
        return;
    }
    let greater = |a: &u32, b: &u32| values[*a as usize] > values[*b as usize];
    if k.saturating_mul(64) <= n {
        heap_select(order, k, &greater);
        sort_heap(&mut order[..k], &greater);
    } else {
        nth_element(order, k - 1, &greater);
        std_sort(&mut order[..k - 1], &greater);
    }
    order.truncate(k);
}

/// `0, 1, ..., n - 1`.
fn identity(n: usize, order: &mut Vec<u32>) {
    order.clear();
    order.extend(0..n as u32);
}

/// The standard library's `std::sort`.
fn std_sort<T: Copy>(a: &mut [T], less: &impl Fn(&T, &T) -> bool) {
    let n = a.len();
    if n < 2 {
        return;
    }
    let depth = 2 * n.ilog2() as usize;
    introsort_loop(a, 0, n, depth, less);
    if n > THRESHOLD {
        insertion_sort(a, 0, THRESHOLD, less);
        for i in THRESHOLD..n {
            unguarded_linear_insert(a, i, less);
        }
    } else {
        insertion_sort(a, 0, n, less);
    }
}

/// The standard library's `nth_element(first, first + nth, last)`: introselect, the same
/// partitions as [`std_sort`]'s, down to parts of at most 3 elements, insertion-sorted; at the
/// depth limit a heap selection.
fn nth_element<T: Copy>(a: &mut [T], nth: usize, less: &impl Fn(&T, &T) -> bool) {
    let (mut first, mut last) = (0, a.len());
    if nth >= last {
        return;
    }
    let mut depth = 2 * last.ilog2() as usize;
    while last - first > 3 {
        if depth == 0 {
            heap_select(&mut a[first..last], nth + 1 - first, less);
            a.swap(first, nth);
            return;
        }
        depth -= 1;
        let cut = pivot_partition(a, first, last, less);
        if cut <= nth {
            first = cut;
        } else {
            last = cut;
        }
    }
    insertion_sort(a, first, last, less);
}

/// The median of three moved to `first`, then Hoare's partition of the rest around it.
fn pivot_partition<T: Copy>(
    a: &mut [T], first: usize, last: usize, less: &impl Fn(&T, &T) -> bool,
) -> usize {
    let mid = first + (last - first) / 2;
    move_median_to_first(a, first, first + 1, mid, last - 1, less);
    unguarded_partition(a, first + 1, last, first, less)
}

fn introsort_loop<T: Copy>(
    a: &mut [T], first: usize, mut last: usize, mut depth: usize, less: &impl Fn(&T, &T) -> bool,
) {
    while last - first > THRESHOLD {
        if depth == 0 {
            heap_sort(&mut a[first..last], less);
            return;
        }
        depth -= 1;
        let cut = pivot_partition(a, first, last, less);
        introsort_loop(a, cut, last, depth, less);
        last = cut;
    }
}

fn move_median_to_first<T: Copy>(
    a: &mut [T], result: usize, x: usize, y: usize, z: usize, less: &impl Fn(&T, &T) -> bool,
) {
    let median = if less(&a[x], &a[y]) {
        if less(&a[y], &a[z]) {
            y
        } else if less(&a[x], &a[z]) {
            z
        } else {
            x
        }
    } else if less(&a[x], &a[z]) {
        x
    } else if less(&a[y], &a[z]) {
        z
    } else {
        y
    };
    a.swap(result, median);
}

/// Hoare's partition around `a[pivot]`, which lies before `first`: the first index of the
/// right part.
fn unguarded_partition<T: Copy>(
    a: &mut [T], mut first: usize, mut last: usize, pivot: usize, less: &impl Fn(&T, &T) -> bool,
) -> usize {
    loop {
        while less(&a[first], &a[pivot]) {
            first += 1;
        }
        last -= 1;
        while less(&a[pivot], &a[last]) {
            last -= 1;
        }
        if first >= last {
            return first;
        }
        a.swap(first, last);
        first += 1;
    }
}

fn insertion_sort<T: Copy>(a: &mut [T], first: usize, last: usize, less: &impl Fn(&T, &T) -> bool) {
    for i in first + 1..last {
        if less(&a[i], &a[first]) {
            let value = a[i];
            a.copy_within(first..i, first + 1);
            a[first] = value;
        } else {
            unguarded_linear_insert(a, i, less);
        }
    }
}

fn unguarded_linear_insert<T: Copy>(a: &mut [T], mut last: usize, less: &impl Fn(&T, &T) -> bool) {
    let value = a[last];
    while less(&value, &a[last - 1]) {
        a[last] = a[last - 1];
        last -= 1;
    }
    a[last] = value;
}

/// The standard library's `partial_sort(first, last, last)`: a max-heap, then popped.
fn heap_sort<T: Copy>(a: &mut [T], less: &impl Fn(&T, &T) -> bool) {
    make_heap(a, less);
    sort_heap(a, less);
}

/// The standard library's `make_heap`.
fn make_heap<T: Copy>(a: &mut [T], less: &impl Fn(&T, &T) -> bool) {
    let len = a.len();
    if len < 2 {
        return;
    }
    let mut parent = (len - 2) / 2;
    loop {
        let value = a[parent];
        adjust_heap(a, parent, len, value, less);
        if parent == 0 {
            break;
        }
        parent -= 1;
    }
}

/// The standard library's `sort_heap`: the heap's top popped to the end, one by one.
fn sort_heap<T: Copy>(a: &mut [T], less: &impl Fn(&T, &T) -> bool) {
    for last in (1..a.len()).rev() {
        pop_heap(a, last, last, less);
    }
}

/// The standard library's `__pop_heap(first, first + len, first + result)`: the top moves to
/// `result`, whose element sifts into the heap of `a[..len]`.
fn pop_heap<T: Copy>(a: &mut [T], len: usize, result: usize, less: &impl Fn(&T, &T) -> bool) {
    let value = a[result];
    a[result] = a[0];
    adjust_heap(&mut a[..len], 0, len, value, less);
}

/// The standard library's `__heap_select(first, first + middle, last)`: a heap of the first
/// `middle` elements, each later element less than its top swapped in.
fn heap_select<T: Copy>(a: &mut [T], middle: usize, less: &impl Fn(&T, &T) -> bool) {
    make_heap(&mut a[..middle], less);
    for i in middle..a.len() {
        if less(&a[i], &a[0]) {
            pop_heap(a, middle, i, less);
        }
    }
}

/// Sifts the hole at `hole` down to a leaf along the larger children, then `value` up.
fn adjust_heap<T: Copy>(
    a: &mut [T], mut hole: usize, len: usize, value: T, less: &impl Fn(&T, &T) -> bool,
) {
    let top = hole;
    let mut child = hole;
    while child < (len - 1) / 2 {
        child = 2 * (child + 1);
        if less(&a[child], &a[child - 1]) {
            child -= 1;
        }
        a[hole] = a[child];
        hole = child;
    }
    if len % 2 == 0 && child == (len - 2) / 2 {
        child = 2 * (child + 1);
        a[hole] = a[child - 1];
        hole = child - 1;
    }
    let mut parent = hole.wrapping_sub(1) / 2;
    while hole > top && less(&a[parent], &value) {
        a[hole] = a[parent];
        hole = parent;
        parent = hole.wrapping_sub(1) / 2;
    }
    a[hole] = value;
}

/// Scores replaced, row by row, by their position in torch's CPU `argsort` of the row: the
/// same order without ties, tied scores placed as torch's sort places them (what
/// torchmetrics' ranking loss counts as ranked above). Computed on the fly from the scores
/// the view wraps.
#[derive(Debug, Clone, Copy)]
pub(crate) struct TorchOrder<'a, S: ?Sized> {
    scores: &'a S,
}

impl<'a, S: ?Sized> TorchOrder<'a, S> {
    pub(crate) fn new(scores: &'a S) -> Self {
        TorchOrder { scores }
    }
}

impl<T: Score, S: Matrix<Elem = T> + ?Sized> Matrix for TorchOrder<'_, S> {
    computed_rows_of_scores!(T);
    fn extend_rows(&self, rows: Range<usize>, out: &mut Vec<T>) {
        let start = out.len();
        self.scores.extend_rows(rows, out);
        let l = self.scores.ncols();
        let (mut values, mut order) = (Vec::with_capacity(l), Vec::with_capacity(l));
        for row in out[start..].chunks_mut(l.max(1)) {
            values.clear();
            values.extend(row.iter().map(|s| s.as_f64()));
            torch_argsort(&values, &mut order);
            for (position, &j) in order.iter().enumerate() {
                row[j as usize] = T::from_f64(position as f64);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{heap_sort, torch_argsort, torch_argsort_descending, torch_topk};

    /// torch 2.15's `torch.argsort` of tie-heavy rows of 1 to 130, 200, 500 and 1,000 values,
    /// and of three rows that drive introsort to its depth limit, where it heap-sorts
    /// (scripts/gen-torch-argsort).
    #[test]
    fn the_order_is_torchs() {
        let text = include_str!("../../../tests/data/torch/argsort.json");
        let (mut order, mut cases, mut heap) = (Vec::new(), 0, 0);
        for case in text.split("{\"values\":[").skip(1) {
            let (values, rest) = case.split_once("],\"argsort\":[").unwrap();
            let (expected, rest) = rest.split_once(']').unwrap();
            let parse = |list: &str| -> Vec<f64> {
                list.split(',')
                    .filter(|x| !x.is_empty())
                    .map(|x| x.parse().unwrap())
                    .collect()
            };
            let values = parse(values);
            let expected: Vec<u32> = parse(expected).into_iter().map(|x| x as u32).collect();
            torch_argsort(&values, &mut order);
            assert_eq!(order, expected, "values {values:?}");
            cases += 1;
            heap += usize::from(rest.starts_with(",\"heap_sort\":true"));
        }
        assert_eq!((cases, heap), (136, 3));
    }

    /// torch 2.15's `topk` (every k on both sides of its switch to a heap at 64 k <= n) and
    /// descending `argsort` of 142 tie-heavy and patterned vectors of 1 to 1,000 values
    /// (scripts/gen-torch-topk).
    #[test]
    fn topk_and_descending_order_are_torchs() {
        let text = include_str!("../../../tests/data/torch/topk.json");
        let parse = |list: &str| -> Vec<f64> {
            list.split(',')
                .filter(|x| !x.is_empty())
                .map(|x| x.parse().unwrap())
                .collect()
        };
        let (mut order, mut cases, mut calls) = (Vec::new(), 0, 0);
        for case in text.split("{\"values\":[").skip(1) {
            let (values, rest) = case.split_once("],\"topk\":{").unwrap();
            let values = parse(values);
            let (topk, rest) = rest.split_once("},\"argsort_descending\":[").unwrap();
            for entry in topk.split("],").filter(|e| !e.is_empty()) {
                let (k, indices) = entry.split_once("\":[").unwrap();
                let k: usize = k.trim_start_matches('"').parse().unwrap();
                let expected: Vec<u32> = parse(indices.trim_end_matches(']'))
                    .into_iter()
                    .map(|x| x as u32)
                    .collect();
                torch_topk(&values, k, &mut order);
                assert_eq!(order, expected, "topk k={k} of {values:?}");
                calls += 1;
            }
            let expected: Vec<u32> = parse(rest.split_once(']').unwrap().0)
                .into_iter()
                .map(|x| x as u32)
                .collect();
            torch_argsort_descending(&values, &mut order);
            assert_eq!(order, expected, "descending argsort of {values:?}");
            cases += 1;
        }
        assert_eq!((cases, calls), (142, 584));
    }

    #[test]
    fn without_ties_it_sorts() {
        let values = [3.0, -1.0, 2.5, 0.0, 7.0, 2.5];
        let mut order = Vec::new();
        torch_argsort(&values, &mut order);
        let sorted: Vec<f64> = order.iter().map(|&j| values[j as usize]).collect();
        assert!(sorted.windows(2).all(|w| w[0] <= w[1]));
    }

    #[test]
    fn up_to_sixteen_elements_ties_keep_column_order() {
        let values = [
            1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0,
        ];
        let mut order = Vec::new();
        torch_argsort(&values, &mut order);
        assert_eq!(
            order,
            [1, 3, 5, 7, 9, 11, 13, 15, 0, 2, 4, 6, 8, 10, 12, 14]
        );
    }

    #[test]
    fn the_heap_sort_sorts() {
        let mut a: Vec<u32> = (0..100).map(|i| (i * 37) % 101).collect();
        heap_sort(&mut a, &|x: &u32, y: &u32| x < y);
        assert!(a.windows(2).all(|w| w[0] <= w[1]));
    }
}
