/* One writer per result set: DIR/NAME.lock, held (flock) for as long as a
 * run or merge writes NAME's files in DIR.  A second one into the same
 * folder and name fails at once instead of deleting the first one's saved
 * points or mixing two result sets.  Child processes inherit the lock
 * (they share its open file), so the workers of one run never trip over
 * it; programs it execs (gnuplot) do not keep it. */
#ifndef RS_REPORT_OUT_LOCK_H
#define RS_REPORT_OUT_LOCK_H

struct rs_out_lock {
	int fd;                       /* -1: not held */
	char path[4200];
};

/* Take DIR/NAME.lock (DIR must exist).  0 held; 1 another process holds
 * it (message naming it and its pid printed); -1 system error (message
 * printed). */
int rs_out_lock_take(struct rs_out_lock *l, const char *dir, const char *name);
/* Remove the lock file and release the lock (no-op when not held). */
void rs_out_lock_release(struct rs_out_lock *l);

#endif
