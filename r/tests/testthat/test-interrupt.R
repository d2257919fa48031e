# The user's interrupt during a long call: a forked R process (parallel::mcparallel) runs
# rm_compare() on data sized to take several seconds and is sent SIGINT shortly after the call
# began. The compiled code checks for the interrupt as it reads the input, so the child's
# tryCatch(interrupt = ) takes R's interrupt condition well within a second or two; without the
# check the interrupt would wait for the end of the call, seconds later.

# Rows of 10 labels (many tied scores) for rm_compare().
interrupt_data <- function(n) {
  list(y = matrix(runif(n * 10) < 0.3, n, 10), s = matrix(round(runif(n * 10), 2), n, 10))
}

test_that("a long call stops soon after an interrupt, with R's interrupt condition", {
  set.seed(40)
  # Rows for a call of about 6 seconds on this machine, timed on 20,000 rows (at most 10^6
  # rows: 120 MB).
  small <- interrupt_data(20000)
  per_row <- system.time(rm_compare(small$y, small$s))[["elapsed"]] / 20000
  n <- as.integer(min(1e6, max(1e5, 6 / max(per_row, 1e-9))))
  expected <- n * per_row
  d <- interrupt_data(n)
  started <- tempfile()
  job <- parallel::mcparallel({
    writeLines("started", started)
    how <- tryCatch({
      rm_compare(d$y, d$s)
      "finished"
    }, interrupt = function(e) paste(class(e), collapse = " "))
    caught <- Sys.time()
    # R goes on: the next call works.
    after <- rm_evaluate(d$y[1:3, ], d$s[1:3, ], metric = "coverage")
    list(how = how, caught = caught, after = after)
  })
  waited <- 0
  while (!file.exists(started) && waited < 60) {
    Sys.sleep(0.01)
    waited <- waited + 0.01
  }
  expect_true(file.exists(started))
  Sys.sleep(0.5)
  sent <- Sys.time()
  tools::pskill(job$pid, tools::SIGINT)
  reply <- parallel::mccollect(job, wait = FALSE, timeout = 60)[[1]]
  if (is.null(reply)) {
    # Still running after a minute: stopped here (it is not collected yet, so the process id is
    # still the child's).
    tools::pskill(job$pid, tools::SIGKILL)
    parallel::mccollect(job)
  }
  expect_type(reply, "list")
  expect_identical(reply$how, "interrupt condition")
  expect_identical(reply$after, rm_evaluate(d$y[1:3, ], d$s[1:3, ], metric = "coverage"))
  took <- as.numeric(difftime(reply$caught, sent, units = "secs"))
  # Within 2 seconds of the signal (0.05 to 0.1 s measured on an idle 2-core machine), where
  # the call would have run about 5.5 seconds more.
  expect_lt(took, 2)
  expect_gt(expected - 0.5, 3)
})
