# The compiled routines (registered by the Rust library; see src/rust/src/lib.rs). Each
# returns list(value = ...), list(error = message, class = kind, row = , column = ) or
# list(interrupted = TRUE).

rm_evaluate_impl <- function(y_true, y_score, sample_weight, convention, metric, keys, values,
                             ties, per_sample) {
  .Call(wrap__rm_evaluate_impl, y_true, y_score, sample_weight, convention, metric, keys,
        values, ties, per_sample)
}

rm_unproven_end_impl <- function(convention, metric, keys, values, ties, weighted) {
  .Call(wrap__rm_unproven_end_impl, convention, metric, keys, values, ties, weighted)
}

rm_compare_impl <- function(y_true, y_score, sample_weight) {
  .Call(wrap__rm_compare_impl, y_true, y_score, sample_weight)
}

rm_metric_names_impl <- function(convention) .Call(wrap__rm_metric_names_impl, convention)

rm_param_keys_impl <- function(convention, metric) {
  .Call(wrap__rm_param_keys_impl, convention, metric)
}

rm_set_micro_pool_cells_impl <- function(cells) .Call(wrap__rm_set_micro_pool_cells_impl, cells)

rm_identify_impl <- function(y_true, y_score, sample_weight, values, metric, tolerance) {
  .Call(wrap__rm_identify_impl, y_true, y_score, sample_weight, values, metric, tolerance)
}
