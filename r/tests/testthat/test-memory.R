# Running out of memory inside the compiled code: a forked R process (parallel::mcparallel)
# lowers its own address-space limit (prlimit) to a little above what it already uses, then asks
# for micro_auc() on an input whose copy does not fit. The call must end with a condition of
# class rankmetrics_memory (the compiled code frees what it holds) and the process must go on:
# without the check, the allocator's failure would abort the whole R process.

test_that("a call that runs out of memory raises rankmetrics_memory and R goes on", {
  skip_on_os(c("windows", "mac", "solaris"))
  if (!nzchar(Sys.which("prlimit"))) {
    # util-linux's prlimit is on every Linux this package is tested on; say so if it is not.
    fail("prlimit (util-linux) is needed to lower a process's address-space limit")
  }
  set.seed(41)
  # 2 x 10^7 cells: micro_auc copies them into a pool of 9 to 13 bytes a cell (about 200 MB),
  # far more than the free space earlier tests may leave inside the memory R has mapped
  # (2 x 10^6 cells, 20 MB, once fitted there).
  n <- 2000000L
  y <- matrix(runif(n * 10) < 0.3, n, 10)
  s <- matrix(round(runif(n * 10), 2), n, 10)
  expected_small <- micro_auc(y[1:50, ], s[1:50, ])
  job <- parallel::mcparallel({
    status <- readLines("/proc/self/status")
    used_kb <- as.numeric(sub("[^0-9]*([0-9]+).*", "\\1", grep("^VmSize:", status, value = TRUE)))
    # 8 MB above what the process has mapped: room for small allocations, not for the pool.
    limit <- (used_kb + 8 * 1024) * 1024
    set <- system2("prlimit", c("--pid", Sys.getpid(), sprintf("--as=%.0f", limit)))
    how <- tryCatch({
      micro_auc(y, s)
      "finished"
    }, rankmetrics_memory = function(e) paste(class(e), collapse = " "))
    # R goes on: a small call works.
    after <- micro_auc(y[1:50, ], s[1:50, ])
    list(set = set, how = how, after = after)
  })
  reply <- parallel::mccollect(job, wait = TRUE)[[1]]
  expect_type(reply, "list")
  expect_identical(reply$set, 0L)
  expect_identical(reply$how,
                   "rankmetrics_memory rankmetrics_error error condition")
  expect_identical(reply$after, expected_small)
})
