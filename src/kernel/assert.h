/* Always-on assertions.
 *
 * A simulator that silently continues after a broken invariant produces
 * plausible but wrong curves, which is worse than a crash.  RS_ASSERT is
 * therefore never compiled out, unlike assert(3) under NDEBUG. */
#ifndef RS_KERNEL_ASSERT_H
#define RS_KERNEL_ASSERT_H

_Noreturn void rs_assert_fail(const char *expr, const char *file, int line,
			      const char *func);

#define RS_ASSERT(expr)                                                     \
	((expr) ? (void)0 : rs_assert_fail(#expr, __FILE__, __LINE__, __func__))

/* Memory ran out in the middle of a run (the caps in config/limits.h keep
 * the work of one run bounded, but the machine may have less): a runtime
 * failure, "raidsim: out of memory: WHAT", exit status 1, not an abort. */
_Noreturn void rs_out_of_memory(const char *what);

#define RS_UNREACHABLE() rs_assert_fail("unreachable", __FILE__, __LINE__, __func__)

#endif
