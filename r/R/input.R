# Conversions shared by every function: inputs brought to what the compiled code reads in
# place, parameters to the registry's (key, value) strings, failures to R conditions.

# y_true: a matrix as it is (logical, integer or double); a data frame becomes a matrix (a
# copy: data frames store columns apart).
rm_labels_input <- function(x) {
  if (is.data.frame(x)) x <- as.matrix(x)
  x
}

# y_score: double matrices are read in place; integer and logical ones are converted to
# double (a copy), data frames too.
rm_scores_input <- function(x) {
  if (is.data.frame(x)) x <- as.matrix(x)
  if (is.matrix(x) && (is.integer(x) || is.logical(x))) storage.mode(x) <- "double"
  x
}

rm_weights_input <- function(w) {
  if (is.null(w)) return(NULL)
  if (is.integer(w) || is.logical(w)) w <- as.double(w)
  w
}

# Text for the compiled code: UTF-8 (a string in another declared encoding, such as latin1, is
# converted), or a parameter error. The compiled code reads strings as UTF-8 without checking.
rm_utf8 <- function(x, what, call) {
  x <- enc2utf8(x)
  if (!all(validUTF8(x))) {
    rm_stop(sprintf("%s is not valid UTF-8 text", what), "parameter", call = call)
  }
  x
}

# One parameter value as the registry reads it: TRUE/FALSE as true/false, NA as NA, numbers
# to the last bit.
rm_param_text <- function(key, value, call) {
  if (length(value) != 1L) {
    rm_stop(sprintf("parameter %s must be a single value", key), "parameter", call = call)
  }
  if (is.na(value)) return("NA")
  if (is.logical(value)) return(if (value) "true" else "false")
  if (is.numeric(value)) return(sprintf("%.17g", value))
  rm_utf8(as.character(value), sprintf("the value of parameter %s", key), call)
}

rm_ties_text <- function(ties, call) {
  if (is.null(ties)) return("")
  if (!is.character(ties) || length(ties) != 1L || is.na(ties)) {
    rm_stop("ties must be NULL or a single string such as \"expected\"", "parameter",
            call = call)
  }
  rm_utf8(ties, "ties", call)
}

rm_string <- function(x, what, call) {
  if (!is.character(x) || length(x) != 1L || is.na(x)) {
    rm_stop(sprintf("%s must be a single string", what), "parameter", call = call)
  }
  rm_utf8(x, what, call)
}

# per_sample: TRUE or FALSE; per-sample values are unweighted, so weights are refused there.
rm_per_sample <- function(per_sample, sample_weight, call) {
  if (!is.logical(per_sample) || length(per_sample) != 1L || is.na(per_sample)) {
    rm_stop("per_sample must be TRUE or FALSE", "parameter", call = call)
  }
  if (per_sample && !is.null(sample_weight)) {
    rm_stop("per_sample = TRUE gives unweighted per-sample values: drop sample_weight",
            "parameter", call = call)
  }
  per_sample
}

# Raises a condition of class rankmetrics_<kind> and rankmetrics_error.
# call: the user's call (of the exported function), which the condition shows.
rm_stop <- function(message, kind, row = NULL, column = NULL, call) {
  cond <- structure(
    class = c(paste0("rankmetrics_", kind), "rankmetrics_error", "error", "condition"),
    list(message = message, call = call, row = row, column = column)
  )
  stop(cond)
}

# R's interrupt, raised again after the compiled code has returned: the compiled code checks
# for the user's interrupt as it reads the input and, when there is one, stops and replies
# list(interrupted = TRUE) (the check used R's interrupt up). The condition is R's own (an
# empty list of class interrupt and condition): handlers for "interrupt" (tryCatch,
# withCallingHandlers) see it as they see R's; when none takes it, R goes back to the top level
# as after an interrupt.
rm_interrupt <- function() {
  signalCondition(structure(list(), class = c("interrupt", "condition")))
  invokeRestart("abort")
}

# The value of a reply from the compiled code, or its failure raised as a condition.
rm_value <- function(reply, call) {
  if (isTRUE(reply$interrupted)) rm_interrupt()
  if (!is.null(reply$error)) {
    rm_stop(reply$error, reply$class, reply$row, reply$column, call = call)
  }
  reply$value
}

# A metric by name through the compiled code.
rm_run <- function(y_true, y_score, convention, metric, params, ties, sample_weight,
                   per_sample, call) {
  params <- params[!vapply(params, is.null, logical(1))]
  keys <- names(params)
  if (length(params) > 0L && (is.null(keys) || any(keys == ""))) {
    rm_stop("metric parameters must be named (for example k = 3)", "parameter", call = call)
  }
  keys <- rm_utf8(as.character(keys), "a parameter name", call)
  values <- vapply(seq_along(params), function(i) rm_param_text(keys[[i]], params[[i]], call),
                   character(1))
  per_sample <- rm_per_sample(per_sample, sample_weight, call)
  reply <- rm_evaluate_impl(
    rm_labels_input(y_true), rm_scores_input(y_score), rm_weights_input(sample_weight),
    rm_string(convention, "convention", call), rm_string(metric, "metric", call),
    keys, values, rm_ties_text(ties, call), per_sample
  )
  value <- rm_value(reply, call)
  # A value under optimistic or pessimistic that is not a proven end of the interval says so.
  why <- rm_value(rm_unproven_end_impl(convention, metric, keys, values,
                                       rm_ties_text(ties, call), !is.null(sample_weight)),
                  call)
  if (!is.null(why)) {
    warning(structure(
      class = c("rankmetrics_unproven_end", "warning", "condition"),
      list(message = paste("not a proven end of the interval over tie orders:", why),
           call = call)
    ))
  }
  value
}
