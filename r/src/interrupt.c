// The one call into R's interrupt machinery. R_CheckUserInterrupt() long-jumps when the user
// has interrupted, which must never happen across the Rust frames of a computation:
// R_ToplevelExec runs it in a context of its own, catches that jump and returns FALSE (the
// interrupt is then used up; the R code raises R's interrupt condition again once the
// computation has returned).

#include <Rinternals.h>
#include <R_ext/Utils.h>

static void check_interrupt(void *unused) {
    (void) unused;
    R_CheckUserInterrupt();
}

// 1 when the user has interrupted R since the last check, 0 otherwise.
int rankmetrics_interrupted(void) {
    return R_ToplevelExec(check_interrupt, NULL) ? 0 : 1;
}
